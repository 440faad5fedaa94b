using System.Reflection;
using System.Runtime.InteropServices;
using System.Runtime.Loader;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// The fallback turned on in an application without the System.Runtime.Serialization.Formatters package: the package
/// is loaded next to the runtime's own in-box assembly, whose BinaryFormatter always throws, in an isolated load
/// context, and the transcoder's error must say exactly what to add.
/// </summary>
public class BinaryFormatterUnavailableTests
{
    [Fact]
    public void Serialize_FallbackOnWithInBoxBinaryFormatter_ErrorSaysWhatToAdd()
    {
        var context = new InBoxFormattersContext();
        try
        {
            Assembly assembly = context.LoadFromAssemblyPath(typeof(ProtobufTranscoder).Assembly.Location);
            object options = Activator.CreateInstance(assembly.GetType("CacheSerializer.ProtobufTranscoderOptions")!)!;
            var allowed = (ICollection<Type>)options.GetType().GetProperty(nameof(ProtobufTranscoderOptions.BinaryFormatterFallbackTypes))!.GetValue(options)!;
            allowed.Add(typeof(BinaryFormatterFallbackTests.Legacy));
            object transcoder = Activator.CreateInstance(assembly.GetType("CacheSerializer.ProtobufTranscoder")!, options)!;
            MethodInfo serialize = transcoder.GetType().GetMethod(nameof(ProtobufTranscoder.Serialize))!;

            Exception e = Assert.Throws<TargetInvocationException>(() => serialize.Invoke(transcoder, [new BinaryFormatterFallbackTests.Legacy()])).InnerException!;

            Assert.Equal("CacheSerializer.TranscoderException", e.GetType().FullName);
            Assert.Contains("<PackageReference Include=\"System.Runtime.Serialization.Formatters\"", e.Message, StringComparison.Ordinal);
            Assert.Contains("<EnableUnsafeBinaryFormatterSerialization>true</EnableUnsafeBinaryFormatterSerialization>", e.Message, StringComparison.Ordinal);
            Assert.True(e.InnerException is PlatformNotSupportedException or NotSupportedException, e.InnerException?.GetType().FullName);
        }
        finally
        {
            context.Unload();
        }
    }

    private sealed class InBoxFormattersContext() : AssemblyLoadContext(nameof(InBoxFormattersContext), isCollectible: true)
    {
        protected override Assembly? Load(AssemblyName assemblyName)
        {
            if (assemblyName.Name == "System.Runtime.Serialization.Formatters")
            {
                return LoadFromAssemblyPath(Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "System.Runtime.Serialization.Formatters.dll"));
            }

            // Everything else (CoreLib, Google.Protobuf, ...) is shared with the test's own context.
            return null;
        }
    }
}
