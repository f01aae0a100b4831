using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// How two runs differ in what they asked of the targets (profile, time scale, operation parameters, warm-up, raw
/// format): a change between them may come from that rather than from the code, so <c>compare</c> says so first.
/// </summary>
internal static class RunDifferences
{
    /// <param name="a">Run A.</param>
    /// <param name="b">Run B.</param>
    /// <param name="pairs">The series paired between them (A's, B's).</param>
    /// <returns>One sentence per difference; empty when the runs asked the same.</returns>
    public static IReadOnlyList<string> Between(RunManifest a, RunManifest b, IEnumerable<(SeriesInfo A, SeriesInfo B)> pairs)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        ArgumentNullException.ThrowIfNull(pairs);
        var found = new List<string>();
        if (!string.Equals(a.Profile, b.Profile, StringComparison.Ordinal))
        {
            found.Add($"profile: A ran '{a.Profile}', B ran '{b.Profile}'.");
        }
        else if (!SameJson(a.ProfileDefinition, b.ProfileDefinition))
        {
            found.Add($"profile definition: both ran '{a.Profile}', but with different stages (overrides such as --users, --rate or --duration).");
        }

        if (a.TimeScale != b.TimeScale)
        {
            found.Add(string.Create(CultureInfo.InvariantCulture, $"time scale: A {a.TimeScale}, B {b.TimeScale}."));
        }

        if (a.SeparatesFailures != b.SeparatesFailures)
        {
            found.Add($"raw format: A is version {a.FormatVersion}, B version {b.FormatVersion}; in the version 2 run, latency includes failed requests.");
        }

        foreach (var (x, y) in pairs)
        {
            var name = x.Id == y.Id ? x.Id : $"{x.Id} ↔ {y.Id}";
            if (Parameters(x) != Parameters(y))
            {
                found.Add($"{name}: operation parameters: A {Parameters(x)}, B {Parameters(y)}.");
            }

            if (x.WarmUpSeconds != y.WarmUpSeconds)
            {
                found.Add(string.Create(CultureInfo.InvariantCulture, $"{name}: warm-up: A {x.WarmUpSeconds} s, B {y.WarmUpSeconds} s."));
            }
        }

        return found;
    }

    private static string Parameters(SeriesInfo series) =>
        series.Parameters.Count == 0 ? "none" : string.Join(", ", series.Parameters.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}"));

    // Two profile definitions are the same when their JSON is, whatever the layout.
    private static bool SameJson(string x, string y)
    {
        try
        {
            return JsonNode.DeepEquals(JsonNode.Parse(x), JsonNode.Parse(y));
        }
        catch (JsonException)
        {
            return string.Equals(x, y, StringComparison.Ordinal);
        }
    }
}
