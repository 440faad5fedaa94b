using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

public class SchemaEvolutionTests
{
    private readonly ProtoModel _model = new();

    [Fact]
    public void Deserialize_NewerPayloadWithAddedFields_OlderReaderSkipsThem()
    {
        var v2 = new PersonV2 { Name = "Ann", Emails = ["a@x", "b@x"], Born = new DateTime(1990, 1, 1, 0, 0, 0, DateTimeKind.Utc), Extra = new InnerPoco { Number = 1 } };

        var v1 = _model.Deserialize<PersonV1>(_model.Serialize(v2));

        Assert.Equal(("Ann", 0), (v1.Name, v1.Age));
    }

    [Fact]
    public void Deserialize_OlderPayloadWithRemovedField_NewerReaderKeepsDefaults()
    {
        var v2 = _model.Deserialize<PersonV2>(_model.Serialize(new PersonV1 { Name = "Bob", Age = 40 }));

        Assert.Equal("Bob", v2.Name);
        Assert.Null(v2.Emails);
        Assert.Equal(default, v2.Born);
        Assert.Null(v2.Extra);
    }

    [Fact]
    public void Deserialize_UnknownFieldsOfEveryWireType_AreSkipped()
    {
        // Field 9 as varint, fixed64, length-delimited, group (with a field inside) and fixed32, around a known field 1.
        byte[] payload =
        [
            0x48, 0x96, 0x01,
            0x49, 1, 2, 3, 4, 5, 6, 7, 8,
            0x0A, 0x01, 0x41,
            0x4A, 0x02, 0x00, 0x01,
            0x4B, 0x08, 0x05, 0x4C,
            0x4D, 1, 2, 3, 4,
        ];

        var back = _model.Deserialize<PersonV1>(payload);

        Assert.Equal(("A", 0), (back.Name, back.Age));
    }

    [Fact]
    public void Deserialize_KnownFieldWithOtherWireType_IsSkippedNotMisread()
    {
        // Field 2 (Age, a varint) arrives as fixed32: skipped like an unknown field.
        var back = _model.Deserialize<PersonV1>(new byte[] { 0x15, 1, 0, 0, 0, 0x0A, 0x01, 0x41 });

        Assert.Equal(("A", 0), (back.Name, back.Age));
    }

    [Fact]
    public void Deserialize_RepeatedFieldSplitAroundOtherFields_AppendsEveryRun()
    {
        // Records: entry, version, entry, entry (a writer may interleave; protobuf says the runs concatenate).
        byte[] payload = [0x1A, 0x02, 0x08, 0x01, 0x08, 0x07, 0x1A, 0x02, 0x08, 0x02, 0x1A, 0x02, 0x08, 0x03];

        var back = _model.Deserialize<RecordSetPoco>(payload);

        Assert.Equal(7, back.Version);
        Assert.Equal([1L, 2L, 3L], back.Entries!.Select(e => e.Id));
    }

    [Fact]
    public void Deserialize_PackedAndUnpackedRunsOfOneField_Concatenate()
    {
        // Field 2 (UnpackedInts) packed {1, 2}, then unpacked 3, then packed {4}.
        byte[] payload = [0x12, 0x02, 0x01, 0x02, 0x10, 0x03, 0x12, 0x01, 0x04];

        Assert.Equal([1, 2, 3, 4], _model.Deserialize<RepeatsPoco>(payload).UnpackedInts!);
    }
}
