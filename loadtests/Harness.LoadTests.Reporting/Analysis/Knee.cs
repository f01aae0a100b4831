using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One load level of a ramp: consecutive seconds at one users count (open model: arrival rate).</summary>
/// <param name="Load">Users, or the arrival rate per second.</param>
/// <param name="FromSecond">Its first series second.</param>
/// <param name="Seconds">Recorded seconds at this load.</param>
/// <param name="MeanMs">Mean latency of its successful requests, from their merged histogram; null when none succeeded.</param>
/// <param name="SuccessesPerSecond">Its successful requests ÷ its seconds.</param>
internal sealed record LoadLevel(int Load, int FromSecond, int Seconds, double? MeanMs, double SuccessesPerSecond);

/// <summary>Why a level left the ideal.</summary>
internal enum KneeReason
{
    /// <summary>Its mean latency was above the ideal latency by more than the margin.</summary>
    Latency,

    /// <summary>Its throughput fell below the throughput of the lowest level scaled linearly with load, by more than the margin.</summary>
    Throughput,
}

/// <summary>
/// Where a ramping series leaves its ideal (docs/report.md, "Knee"): the lowest load level from which, for
/// <see cref="Knee.DefaultSustain"/> judged levels in a row, the mean latency is above the ideal line by more than the
/// margin or the throughput no longer rises with the load. A level too short for its calls is not judged (see
/// <see cref="Knee.Find"/>).
/// </summary>
/// <param name="IsRamp">True when the load rose through at least three levels after the warm-up; else there is no knee to find.</param>
/// <param name="Levels">The levels of the ramp, in order, up to where the load first fell.</param>
/// <param name="IdealMs">The ideal latency: the series' <see cref="SeriesInfo.IdealLatencyMs"/>, else the lowest level's mean.</param>
/// <param name="IdealIsMeasured">True when <paramref name="IdealMs"/> is the series' ideal, false when it is the lowest level's mean.</param>
/// <param name="At">The knee's level; null when the series stayed ideal through its peak (or is not a ramp, or no level could be judged).</param>
/// <param name="Reason">What the knee's level broke first (latency when both).</param>
/// <param name="Unjudged">Levels not judged at all: nothing completed in them and they were too short for an ideal call to.</param>
/// <param name="LatencyOnly">Levels judged on latency but not on throughput: too short to hold <see cref="Knee.ThroughputCalls"/> ideal calls.</param>
internal sealed record KneeResult(
    bool IsRamp, IReadOnlyList<LoadLevel> Levels, double? IdealMs, bool IdealIsMeasured, LoadLevel? At, KneeReason? Reason,
    int Unjudged = 0, int LatencyOnly = 0)
{
    public static KneeResult None { get; } = new(false, [], null, false, null, null);

    /// <summary>The highest load of the ramp.</summary>
    public int PeakLoad => Levels.Count == 0 ? 0 : Levels.Max(l => l.Load);

    /// <summary>A ramp none of whose levels could be judged: it has neither a knee nor a "no knee".</summary>
    public bool NoneJudged => IsRamp && Unjudged == Levels.Count;
}

/// <summary>Finds the knee of a ramping series (<see cref="KneeResult"/>).</summary>
internal static class Knee
{
    /// <summary>How far above the ideal latency (or below the ideal throughput) a level must be: 20 %.</summary>
    public const double DefaultMargin = 0.2;

    /// <summary>Consecutive levels that must all be off the ideal.</summary>
    public const int DefaultSustain = 3;

    /// <summary>Levels a series needs to be a ramp.</summary>
    public const int MinimumLevels = 3;

    /// <summary>
    /// Ideal calls a level (and the lowest level, its baseline) must last for its throughput to be judged: 1 ÷ the
    /// default margin, so that one call more or less per user moves a level's throughput by no more than the margin.
    /// </summary>
    public const double ThroughputCalls = 1 / DefaultMargin;

    /// <param name="series">The series; its warm-up is left out.</param>
    /// <param name="timeline">Its whole timeline.</param>
    /// <param name="margin">How far off the ideal counts, e.g. 0.2 for 20 %.</param>
    /// <param name="sustain">Consecutive judged levels that must be off the ideal; to the end of the ramp counts when at least two remain.</param>
    /// <remarks>
    /// How long a level lasts against the ideal call decides what it can show. Completed requests' mean judges any
    /// level. "Nothing succeeded" judges a level only when it lasted longer than the ideal + margin: a call on the ideal
    /// line would have completed inside it (S1's one-second levels against 60 s calls cannot). Throughput judges a level
    /// only when it and the lowest level each lasted <see cref="ThroughputCalls"/> ideal calls (a 5.6 s level of 4 s
    /// calls counts one or two rounds). A level judged on nothing is skipped: it neither counts towards nor breaks the
    /// run of off levels.
    /// </remarks>
    public static KneeResult Find(SeriesInfo series, IReadOnlyList<SecondSample> timeline, double margin = DefaultMargin, int sustain = DefaultSustain)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(timeline);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(margin);
        ArgumentOutOfRangeException.ThrowIfLessThan(sustain, 1);
        // Seconds are grouped before any histogram is merged: a constant load (a soak of hours) costs no merge.
        var groups = Groups(SeriesSummary.Measured(series, timeline));
        if (groups.Count < MinimumLevels)
        {
            return KneeResult.None;
        }

        var levels = groups.Select(LevelOf).ToList();

        // A first level that completed nothing has no mean to stand for the ideal; without a measured ideal there is
        // nothing to judge it against.
        if (levels[0].MeanMs is null && series.IdealLatencyMs is not > 0)
        {
            return KneeResult.None with { Levels = levels };
        }

        var first = levels[0];
        var ideal = series.IdealLatencyMs is > 0 ? series.IdealLatencyMs.Value : first.MeanMs!.Value;
        bool Lasts(LoadLevel level, double calls) => level.Seconds * 1000.0 >= calls * ideal;
        var throughputBaseline = Lasts(first, ThroughputCalls);
        var judged = new List<(LoadLevel Level, KneeReason? Off)>();
        var latencyOnly = 0;
        foreach (var level in levels)
        {
            if (level.MeanMs is not { } mean)
            {
                // Strictly longer than an ideal call + margin: a call started at its start was due inside it.
                if (level.Seconds * 1000.0 > ideal * (1 + margin))
                {
                    judged.Add((level, KneeReason.Latency));
                }

                continue;
            }

            if (mean > ideal * (1 + margin))
            {
                judged.Add((level, KneeReason.Latency));
                continue;
            }

            if (!throughputBaseline || !Lasts(level, ThroughputCalls))
            {
                latencyOnly++;
                judged.Add((level, null));
                continue;
            }

            var linear = first.SuccessesPerSecond * level.Load / first.Load;
            judged.Add((level, level.SuccessesPerSecond < (1 - margin) * linear ? KneeReason.Throughput : null));
        }

        var result = new KneeResult(true, levels, ideal, series.IdealLatencyMs is > 0, null, null, levels.Count - judged.Count, latencyOnly);
        for (var i = 0; i < judged.Count; i++)
        {
            var run = judged.Skip(i).Take(sustain).ToList();
            if ((run.Count == sustain || (i + run.Count == judged.Count && run.Count >= Math.Min(sustain, 2))) && run.All(l => l.Off is not null))
            {
                return result with { At = judged[i].Level, Reason = judged[i].Off };
            }
        }

        return result;
    }

    private static List<List<SecondSample>> Groups(IReadOnlyList<SecondSample> measured)
    {
        ArgumentNullException.ThrowIfNull(measured);
        var groups = new List<List<SecondSample>>();
        foreach (var sample in measured.Where(s => s.Users > 0).OrderBy(s => s.Second))
        {
            if (groups.Count > 0 && sample.Users != groups[^1][0].Users)
            {
                if (sample.Users < groups[^1][0].Users)
                {
                    // A fall after the first level is where the ramp ends. A fall right after it means that level was
                    // the warm-up's tail (a ramp's warm-up ends higher than the measured ramp starts): drop it.
                    if (groups.Count > 1)
                    {
                        return groups;
                    }

                    groups.Clear();
                    groups.Add([sample]);
                    continue;
                }

                groups.Add([]);
            }

            if (groups.Count == 0)
            {
                groups.Add([]);
            }

            groups[^1].Add(sample);
        }

        return groups;
    }

    private static LoadLevel LevelOf(List<SecondSample> seconds)
    {
        var latency = LatencyHistogram.Merge(seconds.Select(s => s.Latency));
        return new LoadLevel(
            seconds[0].Users,
            seconds[0].Second,
            seconds.Count,
            latency.TotalCount == 0 ? null : latency.MeanMicroseconds / 1000,
            seconds.Sum(s => (double)(s.Requests - s.Failures)) / seconds.Count);
    }
}
