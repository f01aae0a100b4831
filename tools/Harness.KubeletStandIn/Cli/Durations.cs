using System.Globalization;
using System.Text.RegularExpressions;

namespace Harness.KubeletStandIn.Cli;

/// <summary>Durations as k8s-run.sh and the runner take them: a whole number with ms, s, m or h (<c>90s</c>, <c>45m</c>, <c>5h</c>).</summary>
internal static partial class Durations
{
    public const string Examples = "e.g. 90s, 45m or 5h";

    public static bool TryParse(string? text, out TimeSpan value)
    {
        value = default;
        var match = text is null ? null : Shape().Match(text);
        if (match is not { Success: true } || !long.TryParse(match.Groups[1].Value, NumberStyles.None, CultureInfo.InvariantCulture, out var number) || number <= 0)
        {
            return false;
        }

        value = match.Groups[2].Value switch
        {
            "ms" => TimeSpan.FromMilliseconds(number),
            "m" => TimeSpan.FromMinutes(number),
            "h" => TimeSpan.FromHours(number),
            _ => TimeSpan.FromSeconds(number),
        };
        return true;
    }

    public static string Format(TimeSpan value) =>
        value.TotalHours >= 1 && value.TotalHours % 1 == 0 ? string.Create(CultureInfo.InvariantCulture, $"{value.TotalHours:0}h")
        : value.TotalMinutes >= 1 && value.TotalMinutes % 1 == 0 ? string.Create(CultureInfo.InvariantCulture, $"{value.TotalMinutes:0}m")
        : string.Create(CultureInfo.InvariantCulture, $"{value.TotalSeconds:0.###}s");

    [GeneratedRegex("^([0-9]+)(ms|s|m|h)?$")]
    private static partial Regex Shape();
}
