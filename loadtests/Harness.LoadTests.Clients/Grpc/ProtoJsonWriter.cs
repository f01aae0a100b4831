using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// Writes a message given as JSON (protobuf's JSON mapping) in protobuf's wire format, over descriptors read at run
/// time. Google.Protobuf for C# can parse JSON only into generated types (its <c>JsonParser</c> needs a message
/// instance, and it has no DynamicMessage), so this walks the message's <see cref="FieldDescriptor"/>s itself and
/// writes with <see cref="CodedOutputStream"/>: scalars, enums, nested messages, repeated fields (packed where the
/// field is), maps, oneofs and <c>Any</c>. The other well-known types do have generated classes, so their JSON
/// forms (<c>"1.5s"</c>, RFC 3339 times, wrappers as plain values, Struct) are left to Google.Protobuf's own
/// <see cref="JsonParser"/>. Fields go out in field-number order and proto3 defaults are left out, as generated code
/// writes them, so the bytes equal a generated type's <c>ToByteArray()</c>.
/// </summary>
/// <param name="registry">The message types <c>Any</c>'s <c>@type</c> may name.</param>
internal sealed class ProtoJsonWriter(TypeRegistry registry)
{
    private const string AnyType = "google.protobuf.Any";
    private const string ValueType = "google.protobuf.Value";
    private const int MaxDepth = 64;

    /// <summary>The well-known types that have generated classes, by full name: Google.Protobuf parses their JSON.</summary>
    private static readonly Dictionary<string, MessageDescriptor> Generated = new MessageDescriptor[]
    {
        Timestamp.Descriptor, Duration.Descriptor, FieldMask.Descriptor, Struct.Descriptor, Value.Descriptor,
        ListValue.Descriptor, Empty.Descriptor, DoubleValue.Descriptor, FloatValue.Descriptor, Int64Value.Descriptor,
        UInt64Value.Descriptor, Int32Value.Descriptor, UInt32Value.Descriptor, BoolValue.Descriptor,
        StringValue.Descriptor, BytesValue.Descriptor,
    }.ToDictionary(d => d.FullName, StringComparer.Ordinal);

    /// <exception cref="CallSetupException">Not JSON, or JSON that does not fit <paramref name="type"/>; the message names the field.</exception>
    public byte[] Encode(MessageDescriptor type, string json)
    {
        using var document = CallJson.Parse(json);
        return Message(type, document.RootElement, "", depth: 0);
    }

    /// <summary>
    /// The request messages of a client-streaming or bidirectional call, packed (<see cref="RequestStream"/>): each
    /// element of a JSON array is one message, in order; a lone object is a stream of one, as ghz takes it.
    /// </summary>
    /// <exception cref="CallSetupException">Not JSON, or an element that does not fit <paramref name="type"/>; the message names it, <c>[2].orderId</c>.</exception>
    public byte[] EncodeStream(MessageDescriptor type, string json)
    {
        using var document = CallJson.Parse(json);
        var root = document.RootElement;
        return root.ValueKind == JsonValueKind.Array
            ? RequestStream.Pack([.. root.EnumerateArray().Select((element, i) => Message(type, element, $"[{i}]", depth: 0))])
            : RequestStream.Pack([Message(type, root, "", depth: 0)]);
    }

    private byte[] Message(MessageDescriptor type, JsonElement json, string path, int depth, bool skipAnyType = false)
    {
        if (depth > MaxDepth)
        {
            throw Refuse(path, $"nests deeper than {MaxDepth} messages");
        }

        if (Generated.TryGetValue(type.FullName, out var generated))
        {
            return WellKnown(generated, json, path);
        }

        if (type.FullName == AnyType)
        {
            return Any(json, path, depth);
        }

        if (json.ValueKind != JsonValueKind.Object)
        {
            throw Refuse(path, $"is a {type.FullName} message: give a JSON object, not {Describe(json)}");
        }

        var given = new List<(FieldDescriptor Field, JsonElement Value, string Name)>();
        foreach (var property in json.EnumerateObject())
        {
            if (skipAnyType && property.Name == "@type")
            {
                continue;
            }

            var field = FieldNamed(type, property.Name)
                ?? throw new CallSetupException(
                    $"{(path.Length == 0 ? "" : path + ": ")}{type.FullName} has no field '{property.Name}'; its fields are {string.Join(", ", type.Fields.InDeclarationOrder().Select(BothNames))}");
            if (given.FirstOrDefault(g => g.Field == field).Name is { } first)
            {
                throw Refuse(Join(path, field.JsonName), first == property.Name
                    ? $"is given twice (as '{first}')"
                    : $"is given twice, as '{first}' and as '{property.Name}' (its JSON name and its proto name): give one");
            }

            if (property.Value.ValueKind != JsonValueKind.Null && field.ContainingOneof is { IsSynthetic: false } oneof
                && given.FirstOrDefault(g => g.Field.ContainingOneof == oneof && g.Value.ValueKind != JsonValueKind.Null).Field is { } other)
            {
                throw Refuse(path, $"'{other.JsonName}' and '{field.JsonName}' are both of the oneof '{oneof.Name}'; give one");
            }

            given.Add((field, property.Value, property.Name));
        }

        using var stream = new MemoryStream();
        var output = new CodedOutputStream(stream);
        foreach (var (field, value, _) in given.OrderBy(g => g.Field.FieldNumber))
        {
            Field(output, field, value, Join(path, field.JsonName), depth);
        }

        output.Flush();
        return stream.ToArray();
    }

    private void Field(CodedOutputStream output, FieldDescriptor field, JsonElement value, string path, int depth)
    {
        // null is the field's default, except in a google.protobuf.Value, where it is the null value.
        if (value.ValueKind == JsonValueKind.Null && !(field.FieldType == FieldType.Message && field.MessageType.FullName == ValueType && !field.IsRepeated))
        {
            return;
        }

        if (field.IsMap)
        {
            Map(output, field, value, path, depth);
        }
        else if (field.IsRepeated)
        {
            Repeated(output, field, value, path, depth);
        }
        else
        {
            Singular(output, field, value, path, depth, skipDefault: !field.HasPresence);
        }
    }

    private void Repeated(CodedOutputStream output, FieldDescriptor field, JsonElement value, string path, int depth)
    {
        if (value.ValueKind != JsonValueKind.Array)
        {
            throw Refuse(path, $"is a repeated field: give a JSON array, not {Describe(value)}");
        }

        if (field.IsPacked && ProtoScalars.IsPackable(field.FieldType))
        {
            if (value.GetArrayLength() == 0)
            {
                return;
            }

            using var packed = new MemoryStream();
            var items = new CodedOutputStream(packed);
            var index = 0;
            foreach (var item in value.EnumerateArray())
            {
                ProtoScalars.Write(items, field, ProtoScalars.Parse(field, item, $"{path}[{index++}]"));
            }

            items.Flush();
            output.WriteTag(field.FieldNumber, WireFormat.WireType.LengthDelimited);
            output.WriteBytes(UnsafeByteOperations.UnsafeWrap(packed.ToArray()));
            return;
        }

        var at = 0;
        foreach (var item in value.EnumerateArray())
        {
            Singular(output, field, item, $"{path}[{at++}]", depth, skipDefault: false);
        }
    }

    private void Map(CodedOutputStream output, FieldDescriptor field, JsonElement value, string path, int depth)
    {
        if (value.ValueKind != JsonValueKind.Object)
        {
            throw Refuse(path, $"is a map: give a JSON object, not {Describe(value)}");
        }

        var keyField = field.MessageType.FindFieldByNumber(1);
        var valueField = field.MessageType.FindFieldByNumber(2);
        foreach (var entry in value.EnumerateObject())
        {
            var entryPath = $"{path}[\"{entry.Name}\"]";
            using var bytes = new MemoryStream();
            var entryOutput = new CodedOutputStream(bytes);

            // As generated code writes a map entry: its key and value each left out when it is the default.
            var key = ProtoScalars.ParseKey(keyField, entry.Name, entryPath);
            if (!ProtoScalars.IsDefault(key))
            {
                entryOutput.WriteTag(keyField.FieldNumber, ProtoScalars.WireType(keyField.FieldType));
                ProtoScalars.Write(entryOutput, keyField, key);
            }

            if (entry.Value.ValueKind != JsonValueKind.Null || valueField.FieldType == FieldType.Message)
            {
                Singular(entryOutput, valueField, entry.Value, entryPath, depth, skipDefault: valueField.FieldType != FieldType.Message);
            }

            entryOutput.Flush();
            output.WriteTag(field.FieldNumber, WireFormat.WireType.LengthDelimited);
            output.WriteBytes(UnsafeByteOperations.UnsafeWrap(bytes.ToArray()));
        }
    }

    private void Singular(CodedOutputStream output, FieldDescriptor field, JsonElement value, string path, int depth, bool skipDefault)
    {
        if (field.FieldType == FieldType.Group)
        {
            throw Refuse(path, "is a proto2 group, which JSON cannot describe here");
        }

        if (field.FieldType == FieldType.Message)
        {
            var nested = Message(field.MessageType, value, path, depth + 1);
            output.WriteTag(field.FieldNumber, WireFormat.WireType.LengthDelimited);
            output.WriteBytes(UnsafeByteOperations.UnsafeWrap(nested));
            return;
        }

        var scalar = ProtoScalars.Parse(field, value, path);
        if (skipDefault && ProtoScalars.IsDefault(scalar))
        {
            return;
        }

        output.WriteTag(field.FieldNumber, ProtoScalars.WireType(field.FieldType));
        ProtoScalars.Write(output, field, scalar);
    }

    /// <summary><c>{"@type": "type.googleapis.com/pkg.Msg", …fields}</c>, or <c>"value"</c> for a well-known type.</summary>
    private byte[] Any(JsonElement json, string path, int depth)
    {
        if (json.ValueKind != JsonValueKind.Object || !json.TryGetProperty("@type", out var typeUrl) || typeUrl.ValueKind != JsonValueKind.String)
        {
            throw Refuse(path, "is a google.protobuf.Any: give a JSON object with \"@type\": \"type.googleapis.com/package.Message\"");
        }

        var url = typeUrl.GetString()!;
        var name = url[(url.LastIndexOf('/') + 1)..];
        byte[] packed;
        if (Generated.TryGetValue(name, out var wellKnown))
        {
            packed = json.TryGetProperty("value", out var inner)
                ? WellKnown(wellKnown, inner, Join(path, "value"))
                : throw Refuse(path, $"packs a {name}: give its JSON form as \"value\"");
        }
        else
        {
            var type = registry.Find(name) ?? throw Refuse(path, $"names the type '{name}', which the service's descriptors do not define");
            packed = Message(type, json, path, depth + 1, skipAnyType: true);
        }

        using var stream = new MemoryStream();
        var output = new CodedOutputStream(stream);
        output.WriteTag(1, WireFormat.WireType.LengthDelimited);
        output.WriteString(url);
        if (packed.Length > 0)
        {
            output.WriteTag(2, WireFormat.WireType.LengthDelimited);
            output.WriteBytes(UnsafeByteOperations.UnsafeWrap(packed));
        }

        output.Flush();
        return stream.ToArray();
    }

    private static byte[] WellKnown(MessageDescriptor generated, JsonElement json, string path)
    {
        try
        {
            return JsonParser.Default.Parse(json.GetRawText(), generated).ToByteArray();
        }
        catch (Exception ex) when (ex is InvalidProtocolBufferException or InvalidJsonException or FormatException or InvalidOperationException)
        {
            throw Refuse(path, $"is not a valid {generated.FullName} ({ex.Message.ReplaceLineEndings(" ")})");
        }
    }

    /// <summary>The field a JSON property names: by its JSON name (lowerCamelCase) or by its name in the .proto.</summary>
    private static FieldDescriptor? FieldNamed(MessageDescriptor type, string name) =>
        type.Fields.InDeclarationOrder().FirstOrDefault(f => f.JsonName == name) ?? type.FindFieldByName(name);

    /// <summary>A field as the refusals list it: <c>orderId (order_id)</c>, or one name where both are the same.</summary>
    private static string BothNames(FieldDescriptor field) => field.JsonName == field.Name ? field.Name : $"{field.JsonName} ({field.Name})";

    private static string Join(string path, string name) => path.Length == 0 ? name : $"{path}.{name}";

    internal static string Describe(JsonElement json) => json.ValueKind switch
    {
        JsonValueKind.Object => "an object",
        JsonValueKind.Array => "an array",
        JsonValueKind.String => $"the string {json.GetRawText()}",
        JsonValueKind.Number => $"the number {json.GetRawText()}",
        JsonValueKind.True or JsonValueKind.False => json.GetRawText(),
        _ => "null",
    };

    internal static CallSetupException Refuse(string path, string problem) =>
        new(path.Length == 0 ? $"the message {problem}" : $"field '{path}' {problem}");
}
