using System.Globalization;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// Protobuf's scalar fields in JSON (protobuf's JSON mapping: 64-bit integers as numbers or strings, floats also as
/// <c>"NaN"</c>/<c>"Infinity"</c>, bytes as base64, enums by name or number) and on the wire.
/// </summary>
internal static class ProtoScalars
{
    /// <summary>The field's value from JSON: long, ulong, double, float, bool, string or ByteString.</summary>
    /// <exception cref="CallSetupException">The JSON is of the wrong kind or out of the type's range; names the field.</exception>
    public static object Parse(FieldDescriptor field, JsonElement json, string path) => field.FieldType switch
    {
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => Whole(json, path, "an int32", int.MinValue, int.MaxValue),
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => Whole(json, path, "an int64", long.MinValue, long.MaxValue),
        FieldType.UInt32 or FieldType.Fixed32 => (ulong)Whole(json, path, "a uint32", 0, uint.MaxValue),
        FieldType.UInt64 or FieldType.Fixed64 => Unsigned(json, path),
        FieldType.Double => Real(json, path, "a double"),
        FieldType.Float => Single(json, path),
        FieldType.Bool => json.ValueKind is JsonValueKind.True or JsonValueKind.False
            ? json.GetBoolean()
            : throw Wrong(path, "a bool (true or false)", json),
        FieldType.String => json.ValueKind == JsonValueKind.String ? json.GetString()! : throw Wrong(path, "a string", json),
        FieldType.Bytes => Bytes(json, path),
        FieldType.Enum => Enum(field.EnumType, json, path),
        _ => throw ProtoJsonWriter.Refuse(path, $"is of type {field.FieldType}, which is not a scalar"),
    };

    /// <summary>A map key: always a JSON string, whatever the key's type.</summary>
    public static object ParseKey(FieldDescriptor keyField, string key, string path) => keyField.FieldType switch
    {
        FieldType.String => key,
        FieldType.Bool when key is "true" or "false" => key == "true",
        FieldType.Bool => throw ProtoJsonWriter.Refuse(path, "has bool keys: \"true\" or \"false\""),
        _ => Parse(keyField, JsonDocument.Parse(JsonSerializer.Serialize(key)).RootElement, path),
    };

    /// <summary>What generated code leaves out of a proto3 field without presence (NaN is not 0, and is written).</summary>
    public static bool IsDefault(object value) => value switch
    {
        long l => l == 0,
        ulong u => u == 0,
        double d => d == 0,
        float f => f == 0,
        bool b => !b,
        string s => s.Length == 0,
        ByteString bytes => bytes.IsEmpty,
        _ => false,
    };

    public static bool IsPackable(FieldType type) => type is not (FieldType.String or FieldType.Bytes or FieldType.Message or FieldType.Group);

    public static WireFormat.WireType WireType(FieldType type) => type switch
    {
        FieldType.Double or FieldType.Fixed64 or FieldType.SFixed64 => WireFormat.WireType.Fixed64,
        FieldType.Float or FieldType.Fixed32 or FieldType.SFixed32 => WireFormat.WireType.Fixed32,
        FieldType.String or FieldType.Bytes or FieldType.Message => WireFormat.WireType.LengthDelimited,
        _ => WireFormat.WireType.Varint,
    };

    /// <summary>Writes the value alone (no tag), as <see cref="Parse"/> returned it for this field.</summary>
    public static void Write(CodedOutputStream output, FieldDescriptor field, object value)
    {
        switch (field.FieldType)
        {
            case FieldType.Int32: output.WriteInt32((int)(long)value); break;
            case FieldType.SInt32: output.WriteSInt32((int)(long)value); break;
            case FieldType.SFixed32: output.WriteSFixed32((int)(long)value); break;
            case FieldType.Int64: output.WriteInt64((long)value); break;
            case FieldType.SInt64: output.WriteSInt64((long)value); break;
            case FieldType.SFixed64: output.WriteSFixed64((long)value); break;
            case FieldType.UInt32: output.WriteUInt32((uint)(ulong)value); break;
            case FieldType.Fixed32: output.WriteFixed32((uint)(ulong)value); break;
            case FieldType.UInt64: output.WriteUInt64((ulong)value); break;
            case FieldType.Fixed64: output.WriteFixed64((ulong)value); break;
            case FieldType.Double: output.WriteDouble((double)value); break;
            case FieldType.Float: output.WriteFloat((float)value); break;
            case FieldType.Bool: output.WriteBool((bool)value); break;
            case FieldType.String: output.WriteString((string)value); break;
            case FieldType.Bytes: output.WriteBytes((ByteString)value); break;
            case FieldType.Enum: output.WriteEnum((int)(long)value); break;
            default: throw new InvalidOperationException($"{field.FullName}: {field.FieldType} is not a scalar.");
        }
    }

    private static long Whole(JsonElement json, string path, string type, long min, long max)
    {
        var number = WholeNumber(json);
        if (number is { } whole && whole >= min && whole <= max)
        {
            return (long)whole;
        }

        throw Wrong(path, number is null ? type : $"{type} ({min} to {max})", json);
    }

    private static ulong Unsigned(JsonElement json, string path) =>
        WholeNumber(json) is { } number && number >= 0 && number <= ulong.MaxValue ? (ulong)number : throw Wrong(path, "a uint64", json);

    /// <summary>
    /// A JSON number or a string holding one, when it is whole; protobuf's JSON allows 1e3 and 5.0 for integers, and
    /// decimal keeps 64-bit integers exact where double would round them.
    /// </summary>
    private static decimal? WholeNumber(JsonElement json)
    {
        var text = json.ValueKind switch
        {
            JsonValueKind.Number => json.GetRawText(),
            JsonValueKind.String => json.GetString()!,
            _ => null,
        };
        return text is not null && decimal.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && number == decimal.Truncate(number)
            ? number
            : null;
    }

    private static double Real(JsonElement json, string path, string type)
    {
        if (json.ValueKind == JsonValueKind.Number && json.TryGetDouble(out var number) && double.IsFinite(number))
        {
            return number;
        }

        if (json.ValueKind == JsonValueKind.String)
        {
            var text = json.GetString()!;
            if (text is "NaN" or "Infinity" or "-Infinity")
            {
                return text == "NaN" ? double.NaN : text == "Infinity" ? double.PositiveInfinity : double.NegativeInfinity;
            }

            if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out number) && double.IsFinite(number))
            {
                return number;
            }
        }

        throw Wrong(path, type, json);
    }

    private static float Single(JsonElement json, string path)
    {
        var number = Real(json, path, "a float");
        return !double.IsFinite(number) || Math.Abs(number) <= float.MaxValue ? (float)number : throw Wrong(path, "a float (beyond its range)", json);
    }

    private static ByteString Bytes(JsonElement json, string path)
    {
        if (json.ValueKind == JsonValueKind.String)
        {
            // Base64, standard or URL-safe, padding optional.
            var text = json.GetString()!.Replace('-', '+').Replace('_', '/');
            text = text.PadRight(text.Length + ((4 - (text.Length % 4)) % 4), '=');
            try
            {
                return ByteString.CopyFrom(Convert.FromBase64String(text));
            }
            catch (FormatException)
            {
                // Said below.
            }
        }

        throw Wrong(path, "bytes as a base64 string", json);
    }

    private static long Enum(EnumDescriptor type, JsonElement json, string path)
    {
        if (json.ValueKind == JsonValueKind.String)
        {
            return type.FindValueByName(json.GetString()!) is { } named
                ? named.Number
                : throw ProtoJsonWriter.Refuse(path, $"is a {type.FullName}, which has no value {json.GetRawText()}; its values are {string.Join(", ", type.Values.Select(v => v.Name))}");
        }

        return Whole(json, path, $"a {type.FullName} (a name or a number)", int.MinValue, int.MaxValue);
    }

    private static CallSetupException Wrong(string path, string type, JsonElement json) =>
        ProtoJsonWriter.Refuse(path, $"takes {type}, not {ProtoJsonWriter.Describe(json)}");
}
