using System.Globalization;
using System.Runtime.CompilerServices;
using CacheSerializer.Tests.Transcoding.Messages;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// The wire format as a contract: one file per case under Transcoding/Golden (copied to the output directory), holding
/// the flags on its first line and the payload in hex on its second. Every file is read back exactly, and (except the
/// compressed ones, whose encoder output may change with the runtime's zlib/brotli) written byte for byte.
/// </summary>
/// <remarks>
/// A missing or differing file fails the test. To create files for a new case, run the tests with
/// CACHESERIALIZER_WRITE_GOLDEN=1: the files are written into the source tree and the test still fails, so a changed
/// format never passes silently. Never rewrite a file that has shipped: an old entry must keep reading.
/// </remarks>
public class GoldenFileTests
{
    private static readonly ProtobufTranscoder Default = new();

    // The object files hold uncompressed payloads: written with compression off, so a payload that grows past the
    // threshold stays the format it documents (objects are compressed by default since issue 24).
    private static readonly ProtobufTranscoder Uncompressed = new(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None });

    private static readonly ProtobufTranscoder Aliased = new(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None, TypeAliases = { [typeof(Person)] = 5 } });

    private static readonly IReadOnlyDictionary<string, (ProtobufTranscoder Transcoder, object? Value)> Objects =
        new Dictionary<string, (ProtobufTranscoder, object?)>
        {
            ["null"] = (Default, null),
            ["message-person"] = (Uncompressed, SamplePerson()),
            ["message-person-alias-5"] = (Aliased, SamplePerson()),
            ["message-address-empty"] = (Uncompressed, new Address()),
            ["object-item"] = (Uncompressed, new Contracts.Item { Name = "readme.md", Tags = ["doc"] }),
            ["object-shared-folder"] = (Uncompressed, Contracts.Samples.Tree()),
        };

    private static readonly IReadOnlyDictionary<string, object> Compressed = new Dictionary<string, object>
    {
        ["compressed-brotli-string"] = CompressibleText(),
        ["compressed-deflate-string"] = CompressibleText(),
        ["compressed-zlib-string"] = CompressibleText(),
        ["compressed-zlib-message-person"] = new Person { Name = CompressibleText(), Id = 7 },
        ["compressed-zstandard-string"] = CompressibleText(),
        ["compressed-zstandard-object-item"] = new Contracts.Item { Name = CompressibleText(), Tags = ["doc", "golden"] },
        ["compressed-lz4-string"] = CompressibleText(),
        ["compressed-lz4-object-item"] = new Contracts.Item { Name = CompressibleText(), Tags = ["doc", "golden"] },
    };

    // Zstandard and LZ4 come from pinned packages (ZstdSharp.Port 0.8.8, K4os.Compression.LZ4 1.3.8), not from the
    // runtime: their output is written byte for byte too, at the default level (Fastest).
    public static IEnumerable<object[]> PinnedEncoderCases => CompressedCases.Where(c => ((string)c[0]).Contains("zstandard", StringComparison.Ordinal) || ((string)c[0]).Contains("lz4", StringComparison.Ordinal));

    // A Local DateTime is stored as its UTC instant: its bytes depend on the machine's time zone, so it has no file.
    public static IEnumerable<object[]> WrittenCases =>
        NativeCases.Names.Where(c => (string)c[0] != "datetime-local").Concat(Objects.Keys.Select(name => new object[] { name }));

    public static IEnumerable<object[]> CompressedCases => Compressed.Keys.Select(name => new object[] { name });

    [Theory]
    [MemberData(nameof(WrittenCases))]
    public void Serialize_GoldenCase_WritesTheGoldenFileExactly(string name)
    {
        (ProtobufTranscoder? transcoder, object? value) = Case(name);

        CacheItem item = transcoder.Serialize(value);

        CacheItem golden = ReadGolden(name, item);
        Assert.Equal($"0x{golden.Flags:X4}", $"0x{item.Flags:X4}");
        Assert.Equal(Convert.ToHexStringLower(golden.Bytes()), Convert.ToHexStringLower(item.Bytes()));
    }

    [Theory]
    [MemberData(nameof(WrittenCases))]
    public void Deserialize_GoldenFile_ReturnsTheValueExactly(string name)
    {
        (ProtobufTranscoder? transcoder, object? value) = Case(name);
        CacheItem golden = ReadGolden(name, transcoder.Serialize(value));

        ValueAssert.Identical(value, transcoder.Deserialize(golden));
        ValueAssert.Identical(value, value is null ? transcoder.Deserialize<object>(golden) : transcoder.DeserializeAs(value.GetType(), golden));
    }

    [Theory]
    [MemberData(nameof(CompressedCases))]
    public void Deserialize_CompressedGoldenFile_ReturnsTheValueExactly(string name)
    {
        object value = Compressed[name];
        CacheItem golden = ReadGolden(name, CompressingWriter(name).Serialize(value));

        Assert.True((golden.Flags & 0x0080) != 0, "a compressed golden file carries the compression bit");
        ValueAssert.Identical(value, Default.DeserializeAs(value.GetType(), golden));
    }

    [Theory]
    [MemberData(nameof(PinnedEncoderCases))]
    public void Serialize_CompressedGoldenCaseOfAPinnedEncoder_WritesTheGoldenFileExactly(string name)
    {
        CacheItem item = CompressingWriter(name).Serialize(Compressed[name]);

        CacheItem golden = ReadGolden(name, item);
        Assert.Equal($"0x{golden.Flags:X4}", $"0x{item.Flags:X4}");
        Assert.Equal(Convert.ToHexStringLower(golden.Bytes()), Convert.ToHexStringLower(item.Bytes()));
    }

    private static ProtobufTranscoder CompressingWriter(string name) => new(new ProtobufTranscoderOptions
    {
        Compression = name.Split('-')[1] switch
        {
            "brotli" => TranscoderCompression.Brotli,
            "deflate" => TranscoderCompression.Deflate,
            "zstandard" => TranscoderCompression.Zstandard,
            "lz4" => TranscoderCompression.Lz4,
            _ => TranscoderCompression.ZLib,
        },

        // The string cases take the opt-in: strings keep EnyimMemcachedCore's bytes by default.
        CompressStringsAndBytes = true,
    });

    private static (ProtobufTranscoder Transcoder, object? Value) Case(string name) =>
        NativeCases.All.TryGetValue(name, out object? native) ? (Default, native) : Objects[name];

    private static Person SamplePerson() => new()
    {
        Name = "Ada",
        Id = 1815,
        Emails = { "ada@example.org" },
        Address = new Address { City = "London", Postcode = "W1" },
        Score = 0.25,
    };

    private static string CompressibleText() => string.Concat(Enumerable.Repeat("golden files keep the format honest. ", 60));

    private static CacheItem ReadGolden(string name, CacheItem current)
    {
        string path = Path.Combine(AppContext.BaseDirectory, "Transcoding", "Golden", name + ".golden");
        if (Environment.GetEnvironmentVariable("CACHESERIALIZER_WRITE_GOLDEN") == "1")
        {
            string source = Path.Combine(SourceDirectory(), "Golden", name + ".golden");
            File.WriteAllText(source, $"0x{current.Flags:X4}\n{Convert.ToHexStringLower(current.Bytes())}\n");
            Assert.Fail($"Wrote {source}; review it, commit it, and run the tests again without CACHESERIALIZER_WRITE_GOLDEN.");
        }

        Assert.True(File.Exists(path), $"Golden file missing: {path}. See GoldenFileTests' remarks.");
        string[] lines = File.ReadAllLines(path);
        uint flags = uint.Parse(lines[0].AsSpan(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        return TranscoderTestHelpers.Item(flags, Convert.FromHexString(lines.Length > 1 ? lines[1] : string.Empty));
    }

    private static string SourceDirectory([CallerFilePath] string path = "") => Path.GetDirectoryName(path)!;
}
