using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// The soak verdict's default limits (docs/report.md, "Soak"). They apply to a run of the profile named
/// <c>soak</c>, or to any run given a <c>soak.*</c> threshold: each criterion the thresholds do not name is judged by
/// its default, on every series.
/// </summary>
internal static class SoakDefaults
{
    public const string ProfileName = "soak";

    /// <summary>p99 within +10 %, req/s within −5 %, working set under 2 %/h, threads under 10 %/h, errors under 0.1 %.</summary>
    public static IReadOnlyList<string> Expressions { get; } =
    [
        "soak.p99.drift<10%",
        "soak.rps.drift>-5%",
        "soak.memory.growth<2%/h",
        "soak.threads.growth<10%/h",
        "soak.errors<0.1%",
    ];

    /// <summary>True when the run is judged as a soak: its profile is <c>soak</c>, or a soak threshold was given.</summary>
    public static bool Apply(RunManifest manifest, IEnumerable<Threshold> given)
    {
        ArgumentNullException.ThrowIfNull(manifest);
        ArgumentNullException.ThrowIfNull(given);
        return string.Equals(manifest.Profile, ProfileName, StringComparison.OrdinalIgnoreCase) || given.Any(t => t.IsSoak);
    }

    /// <summary>The thresholds given, followed by the default of every soak criterion they leave out when <see cref="Apply"/> holds.</summary>
    public static IReadOnlyList<Threshold> With(RunManifest manifest, IEnumerable<Threshold> given)
    {
        ArgumentNullException.ThrowIfNull(given);
        var list = given.ToList();
        if (!Apply(manifest, list))
        {
            return list;
        }

        var named = list.Select(t => t.SoakCriterion).OfType<string>().ToHashSet(StringComparer.Ordinal);
        return
        [
            .. list,
            .. Expressions.Select(Threshold.Parse).Where(t => !named.Contains(t.SoakCriterion!)).Select(t => t with { IsDefault = true }),
        ];
    }

    /// <summary>
    /// The soak verdicts a report shows when the run is judged as a soak: those among the threshold results given,
    /// else, for a run of the soak profile rendered without them (<c>harness report</c>), the defaults'. Null when the
    /// run is not judged as a soak.
    /// </summary>
    public static IReadOnlyList<ThresholdResult>? Verdicts(RunManifest manifest, IReadOnlyList<SeriesSummary> summaries, IReadOnlyList<ThresholdResult>? results)
    {
        ArgumentNullException.ThrowIfNull(summaries);
        var given = results?.Where(r => r.Threshold.IsSoak).ToList() ?? [];
        if (given.Count > 0)
        {
            return given;
        }

        return Apply(manifest, []) ? ThresholdEvaluator.Evaluate(summaries, With(manifest, [])) : null;
    }
}
