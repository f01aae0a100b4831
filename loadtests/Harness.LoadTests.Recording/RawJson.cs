using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Harness.LoadTests.Recording;

/// <summary>The JSON settings of the raw files, shared by writer and reader so both agree on every name.</summary>
internal static class RawJson
{
    /// <summary>One record per line: camelCase, nulls omitted, NaN and infinities as the strings "NaN", "Infinity", "-Infinity".</summary>
    public static readonly JsonSerializerOptions Line = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
        // The files are data, never HTML: keep '+' (base64) and '"' (metric labels) readable instead of \u002B.
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        RespectNullableAnnotations = true,
        Converters = { new LatencyHistogramJsonConverter() },
    };

    public static readonly JsonSerializerOptions Indented = new(Line) { WriteIndented = true };

    // A histogram is an object of exact fields plus HdrHistogram's own compressed encoding (docs/raw-format.md).
    private sealed class LatencyHistogramJsonConverter : JsonConverter<LatencyHistogram>
    {
        public override LatencyHistogram Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
        {
            if (reader.TokenType != JsonTokenType.StartObject)
            {
                throw new JsonException("A latency histogram must be an object with count, min, max, sum, clamped and hdr.");
            }

            var encoded = JsonSerializer.Deserialize<EncodedLatency>(ref reader, options);
            if (encoded?.Hdr is null)
            {
                throw new JsonException("A latency histogram needs its 'hdr' field.");
            }

            try
            {
                return LatencyHistogram.Decode(encoded);
            }
            catch (FormatException exception)
            {
                throw new JsonException($"Bad latency histogram: {exception.Message}", exception);
            }
        }

        public override void Write(Utf8JsonWriter writer, LatencyHistogram value, JsonSerializerOptions options) =>
            JsonSerializer.Serialize(writer, value.Encode(), options);
    }
}
