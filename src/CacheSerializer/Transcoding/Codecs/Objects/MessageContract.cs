using System.Text;
using Google.Protobuf.Reflection;

namespace CacheSerializer.Transcoding.Codecs.Objects;

/// <summary>
/// The canonical description of a Google.Protobuf message's contract, from its descriptor: every field's number, type,
/// repetition, packing and presence, and the messages it holds (numbered in the order first reached, never named: a
/// renamed field or message changes no byte). What a message item's fingerprint is the hash of.
/// </summary>
internal static class MessageContract
{
    /// <summary>The first line of every description: bump it when the description's own format changes.</summary>
    public const string Version = "protobuf message 1";

    public static string Describe(MessageDescriptor root)
    {
        var numbers = new Dictionary<MessageDescriptor, int>();
        var pending = new Queue<MessageDescriptor>();
        StringBuilder text = new StringBuilder().Append(Version).Append('\n').Append("root #").Append(Number(root)).Append('\n');
        while (pending.TryDequeue(out MessageDescriptor? message))
        {
            text.Append('#').Append(numbers[message]).Append(" {\n");
            foreach (FieldDescriptor field in message.Fields.InFieldNumberOrder())
            {
                text.Append("  ").Append(field.FieldNumber).Append(": ").Append(Field(field)).Append('\n');
            }

            text.Append("}\n");
        }

        return text.ToString();

        int Number(MessageDescriptor message)
        {
            if (!numbers.TryGetValue(message, out int number))
            {
                number = numbers.Count;
                numbers.Add(message, number);
                pending.Enqueue(message);
            }

            return number;
        }

        string Field(FieldDescriptor field)
        {
            if (field.IsMap)
            {
                MessageDescriptor entry = field.MessageType;
                return $"map({Type(entry.FindFieldByNumber(1))}, {Type(entry.FindFieldByNumber(2))})";
            }

            string type = Type(field);
            return (field.IsRepeated ? $"repeated({type})" : type) + (field.IsPacked ? " packed" : "") + (field.HasPresence && !field.IsRepeated ? " presence" : "");
        }

        string Type(FieldDescriptor field) => field.FieldType switch
        {
            FieldType.Message => "message #" + Number(field.MessageType),
            FieldType.Group => "group #" + Number(field.MessageType),
            FieldType.Enum => "enum",
            var scalar => scalar.ToString().ToLowerInvariant(),
        };
    }
}
