using System.Text;
using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Models;
using Newtonsoft.Json.Linq;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Contenders;

public class EnyimBsonTranscoderTests
{
    [Fact]
    public void Serialize_RpcMessage_IsTheBsonDocumentOfADefaultJsonSerializer()
    {
        // Built from the BSON spec (bsonspec.org): what a default Newtonsoft JsonSerializer writes, as DefaultTranscoder
        // stores objects: properties in declaration order, Pascal-case names, no type name.
        var message = (RpcMessage)WorkloadCatalog.Get("RpcMessage").Value;
        var body = new List<byte>();
        Int32Element(body, "RequestId", message.RequestId);
        Int32Element(body, "Status", message.Status);
        StringElement(body, "Service", message.Service);
        StringElement(body, "Method", message.Method);
        StringElement(body, "Body", message.Body);
        byte[] expected = [.. BitConverter.GetBytes(body.Count + 5), .. body, 0];

        CacheItem item = new EnyimBsonTranscoder().Serialize(message);

        Assert.Equal(0x0101u, item.Flags);
        Assert.Equal(expected, item.Data.AsSpan().ToArray());
    }

    [Fact]
    public void Serialize_Folders_NamesTheDerivedTypesAsNewtonsoftDoes()
    {
        CacheItem item = new EnyimBsonTranscoder().Serialize(WorkloadCatalog.Get("Folders").Value);
        string text = Encoding.UTF8.GetString(item.Data.AsSpan());

        Assert.Contains("$type", text, StringComparison.Ordinal);
        Assert.Contains("CacheSerializer.Workloads.Models.DocumentNode, CacheSerializer.Workloads", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Deserialize_ObjectEntry_ReturnsNewtonsoftsTreeAsDefaultTranscoderDoes()
    {
        var transcoder = new EnyimBsonTranscoder();

        object? read = transcoder.Deserialize(transcoder.Serialize(WorkloadCatalog.Get("RpcMessage").Value));

        JObject tree = Assert.IsType<Newtonsoft.Json.Linq.JObject>(read);
        Assert.Equal(((RpcMessage)WorkloadCatalog.Get("RpcMessage").Value).Body, (string?)tree["Body"]);
    }

    private static void Int32Element(List<byte> bytes, string name, int value)
    {
        bytes.Add(0x10);
        CString(bytes, name);
        bytes.AddRange(BitConverter.GetBytes(value));
    }

    private static void StringElement(List<byte> bytes, string name, string value)
    {
        bytes.Add(0x02);
        CString(bytes, name);
        byte[] utf8 = Encoding.UTF8.GetBytes(value);
        bytes.AddRange(BitConverter.GetBytes(utf8.Length + 1));
        bytes.AddRange(utf8);
        bytes.Add(0);
    }

    private static void CString(List<byte> bytes, string text)
    {
        bytes.AddRange(Encoding.UTF8.GetBytes(text));
        bytes.Add(0);
    }
}
