using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using Harness.LoadTests.Shared;

namespace Harness.LoadTests.Profiles;

/// <summary>Durations as people write them: <c>1500ms</c>, <c>45s</c>, <c>8m</c>, <c>2h</c>, or <c>hh:mm:ss</c>.</summary>
internal sealed class DurationJsonConverter : JsonConverter<TimeSpan>
{
    public override TimeSpan Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        var text = reader.GetString();
        return TryParse(text, out var value)
            ? value
            : throw new JsonException($"'{text}' is not a duration; write e.g. 1500ms, 45s, 8m, 2h or 00:08:00.");
    }

    public override void Write(Utf8JsonWriter writer, TimeSpan value, JsonSerializerOptions options) =>
        writer.WriteStringValue(Format(value));

    public static bool TryParse(string? text, out TimeSpan value)
    {
        value = default;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        text = text.Trim();
        (string Suffix, double Milliseconds)[] units = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)];
        foreach (var (suffix, ms) in units)
        {
            if (text.EndsWith(suffix, StringComparison.OrdinalIgnoreCase)
                && double.TryParse(text.AsSpan(0, text.Length - suffix.Length), NumberStyles.Float, CultureInfo.InvariantCulture, out var number)
                && number >= 0)
            {
                value = TimeSpan.FromMilliseconds(number * ms);
                return true;
            }
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out value) && value >= TimeSpan.Zero;
    }

    public static string Format(TimeSpan value) => DurationText.Format(value);
}
