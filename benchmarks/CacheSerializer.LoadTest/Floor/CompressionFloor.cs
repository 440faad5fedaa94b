using System.Diagnostics;
using System.Globalization;
using System.Text;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.LoadTest.Floor;

/// <summary>
/// The bytes floor of a load-test mix (issue 24): every key's item as a pass stores it, each alone, compressed by the
/// strongest general-purpose compressors (xz -9e, zstd -19) and by the contenders, summed over the key space, so a
/// contender's bytes are judged against what lossless compression of the same payloads can reach.
/// </summary>
/// <remarks>
/// The payloads are the uncompressed transcoder's (<see cref="ContenderCatalog.CacheSerializerUncompressed"/>): the
/// protobuf body with its type header, what any compression setting of ours starts from. Each item is compressed alone,
/// as memcached stores it: a compressor that saw every item at once would find the repeats between keys, which no
/// cache item can use. Each key holds the value a write of its variant stores, stamped with the key's number (a pass's
/// stamps differ, and change a varint by a byte or two). Payload bytes only: memcached adds the key and about 50 bytes
/// of item header to each, the same for every contender.
/// </remarks>
internal static class CompressionFloor
{
    /// <summary>The external compressors, as run: each reads one payload on stdin and writes its compressed form to stdout.</summary>
    public static readonly IReadOnlyList<(string Name, string File, string Arguments)> Tools =
    [
        ("xz -9e", "xz", "-9e --format=xz --stdout"),
        ("zstd -19", "zstd", "-19 --stdout --quiet"),
    ];

    /// <summary>Measures every key's item under each contender and each external compressor.</summary>
    /// <param name="mix">The mix (the default profile's, or the seed profile's).</param>
    /// <param name="contenders">The contenders to size beside the floor, the first the reference of the ratios.</param>
    /// <param name="tools">The external compressors (<see cref="Tools"/>).</param>
    /// <param name="progress">Where a line per hundred keys goes.</param>
    /// <param name="cancellationToken">Cancels between items.</param>
    /// <returns>Total payload bytes per column, in order: the contenders, then the tools.</returns>
    /// <exception cref="InvalidOperationException">A compressor is missing or failed (scripts/floor.sh installs them).</exception>
    public static async Task<IReadOnlyList<(string Name, long Bytes)>> MeasureAsync(
        ValueMix mix,
        IReadOnlyList<Contender> contenders,
        IReadOnlyList<(string Name, string File, string Arguments)> tools,
        TextWriter progress,
        CancellationToken cancellationToken)
    {
        // The seed profile's item limit, the larger of the two: the floor sizes items, it does not enforce a limit.
        ITranscoder plain = ContenderCatalog.Get(ContenderCatalog.CacheSerializerUncompressed, 8 * 1024 * 1024).Transcoder;
        long[] totals = new long[contenders.Count + tools.Count];
        for (int key = 0; key < mix.Keys; key++)
        {
            for (int c = 0; c < contenders.Count; c++)
            {
                object value = mix.For(contenders[c].Input).ShapeOf(key).Create(mix.VariantOf(key), key + 1);
                totals[c] += contenders[c].Transcoder.Serialize(value).Data.Count;
            }

            byte[] payload = [.. plain.Serialize(mix.ShapeOf(key).Create(mix.VariantOf(key), key + 1)).Data];
            for (int t = 0; t < tools.Count; t++)
            {
                totals[contenders.Count + t] += await CompressedLengthAsync(tools[t].File, tools[t].Arguments, payload, cancellationToken).ConfigureAwait(false);
            }

            if ((key + 1) % 100 == 0)
            {
                await progress.WriteLineAsync($"{key + 1} of {mix.Keys} keys").ConfigureAwait(false);
            }
        }

        return [.. contenders.Select(c => c.Name).Concat(tools.Select(t => t.Name)).Zip(totals)];
    }

    /// <summary>Formats the totals as a Markdown table: bytes, bytes per item and the ratio to the first column.</summary>
    /// <param name="totals">The totals, the reference first.</param>
    /// <param name="keys">The number of items summed.</param>
    /// <returns>The table.</returns>
    public static string ToMarkdown(IReadOnlyList<(string Name, long Bytes)> totals, int keys)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"| Items ({keys}, each alone) | bytes | KB/item | vs {totals[0].Name} |");
        text.AppendLine("|---|---:|---:|---:|");
        foreach ((string name, long bytes) in totals)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {name} | {bytes:N0} | {bytes / 1024.0 / keys:N1} | {(double)bytes / totals[0].Bytes:0.00}x |");
        }

        return text.ToString();
    }

    private static async Task<long> CompressedLengthAsync(string file, string arguments, byte[] payload, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(file, arguments)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        Process process;
        try
        {
            process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start.");
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new InvalidOperationException($"{file} is not installed (scripts/floor.sh installs xz-utils and zstd): {e.Message}", e);
        }

        using (process)
        {
            // Read while writing: a compressor that fills its stdout pipe before its input ends would otherwise wait forever.
            Task<long> counted = CountAsync(process.StandardOutput.BaseStream, cancellationToken);
            Task<string> errorText = process.StandardError.ReadToEndAsync(cancellationToken);
            await process.StandardInput.BaseStream.WriteAsync(payload, cancellationToken).ConfigureAwait(false);
            process.StandardInput.Close();
            long length = await counted.ConfigureAwait(false);
            string errors = await errorText.ConfigureAwait(false);
            await process.WaitForExitAsync(cancellationToken).ConfigureAwait(false);
            if (process.ExitCode != 0)
            {
                throw new InvalidOperationException($"{file} {arguments} exited with {process.ExitCode}: {errors.Trim()}");
            }

            return length;
        }
    }

    private static async Task<long> CountAsync(Stream stream, CancellationToken cancellationToken)
    {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        int n;
        while ((n = await stream.ReadAsync(buffer, cancellationToken).ConfigureAwait(false)) > 0)
        {
            total += n;
        }

        return total;
    }
}
