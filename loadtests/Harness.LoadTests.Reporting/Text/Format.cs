using System.Globalization;

namespace Harness.LoadTests.Reporting.Text;

/// <summary>
/// How figures are written in every report and verdict (invariant culture, so reports diff cleanly across machines).
/// A leaf: Analysis writes its verdicts' messages with it and Formats its tables, so both read alike.
/// </summary>
internal static class Format
{
    public const string Missing = "—";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>About three significant digits, thousands grouped: 4,012 · 412 · 41.2 · 4.12 · 0.412.</summary>
    public static string Number(double? value)
    {
        if (value is not { } v || double.IsNaN(v) || double.IsInfinity(v))
        {
            return Missing;
        }

        var magnitude = Math.Abs(v);
        var format = magnitude >= 100 ? "#,0" : magnitude >= 10 ? "#,0.0" : magnitude >= 1 ? "0.00" : "0.###";
        return v.ToString(format, Invariant);
    }

    public static string Integer(double? value) =>
        value is { } v && !double.IsNaN(v) ? Math.Round(v).ToString("#,0", Invariant) : Missing;

    /// <summary>A fraction (0.0123) as a percentage (1.23 %).</summary>
    public static string Rate(double? fraction) =>
        fraction is { } f ? (f * 100).ToString(f == 0 ? "0" : f * 100 >= 10 ? "0.0" : "0.00", Invariant) + " %" : Missing;

    public static string Ratio(double? ratio) =>
        ratio is { } r ? r.ToString(r >= 100 ? "#,0" : r >= 10 ? "0.0" : "0.00", Invariant) + "×" : Missing;

    public static string Change(double? percent) =>
        percent is not { } p ? "n/a"
        : Math.Abs(p) < 0.05 ? "0.0 %"
        : (p > 0 ? "+" : string.Empty) + p.ToString(Math.Abs(p) >= 100 ? "#,0" : "0.0", Invariant) + " %";

    /// <summary>Seconds on a run's time axis: 5 · 47.5 · 1,030.</summary>
    public static string Seconds(double value) => value.ToString("#,0.#", Invariant);

    public static string Plain(double value) => value.ToString("0.###", Invariant);

    /// <summary>A length of time in whole seconds, in its largest units: 45 s · 10 min · 2 min 30 s · 1 h 5 min.</summary>
    public static string Duration(int seconds)
    {
        int h = seconds / 3600, min = seconds % 3600 / 60, s = seconds % 60;
        var parts = new[] { (h, "h"), (min, "min"), (s, "s") }.Where(p => p.Item1 != 0).Select(p => $"{p.Item1.ToString("#,0", Invariant)} {p.Item2}").ToList();
        return parts.Count == 0 ? "0 s" : string.Join(' ', parts);
    }

    public static string Csv(double? value) => value is { } v && !double.IsNaN(v) ? Math.Round(v, 3).ToString("0.###", Invariant) : string.Empty;

    public static string ByStatus(IReadOnlyList<KeyValuePair<string, long>> byStatus) =>
        byStatus.Count == 0 ? Missing : string.Join(", ", byStatus.Select(p => $"{p.Key} {p.Value.ToString("#,0", Invariant)}"));

    public static string Parameters(IReadOnlyDictionary<string, string> parameters) =>
        parameters.Count == 0 ? Missing : string.Join(", ", parameters.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}"));
}
