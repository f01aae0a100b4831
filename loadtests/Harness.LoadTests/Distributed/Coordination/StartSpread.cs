using System.Globalization;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Distributed.Coordination;

/// <summary>
/// How closely the agents started each series, by the coordinator's clock (each agent's own clock plus its measured
/// offset): one event per series for the merged run, a warning event when the spread exceeds the bound. A merged
/// second adds up the agents' same-numbered seconds, so agents that start apart blur every per-second figure by
/// that much.
/// </summary>
internal static class StartSpread
{
    /// <summary>The default bound: a tenth of the merged run's one-second resolution.</summary>
    public static readonly TimeSpan DefaultBound = TimeSpan.FromMilliseconds(100);

    // Not "…-start": the report pairs "-start" and "-end" events into shaded windows.
    public const string EventKind = "agents-started";
    public const string WarningKind = "warning";

    /// <summary>The events for <paramref name="timings"/>, placed at each series' start in <paramref name="manifest"/>.</summary>
    public static IReadOnlyList<RunEvent> Events(IReadOnlyList<MeetingTiming> timings, RunManifest manifest, TimeSpan bound)
    {
        var events = new List<RunEvent>();
        for (var i = 0; i < manifest.Series.Count; i++)
        {
            var series = manifest.Series[i];
            var timing = timings.FirstOrDefault(t => t.Phase == CoordinatorState.SeriesPhase(i, series.Id));
            if (timing is null)
            {
                continue;
            }

            var (spread, text) = Describe(timing);
            events.Add(new RunEvent(series.OffsetSeconds, EventKind, series.Id, text));
            if (spread is { } apart && apart > bound)
            {
                events.Add(new RunEvent(series.OffsetSeconds, WarningKind, series.Id, string.Create(CultureInfo.InvariantCulture,
                    $"the agents started this series {apart.TotalMilliseconds:F0} ms apart, more than the bound of {bound.TotalMilliseconds:F0} ms: its merged seconds mix the agents' load over that much time.")));
            }
        }

        return events;
    }

    /// <summary>The spread of the agents' actual starts (null when an agent did not say) and one line with every agent's start and clock.</summary>
    public static (TimeSpan? Spread, string Text) Describe(MeetingTiming timing)
    {
        var starts = timing.Agents.Where(a => a.ActualStart is not null).Select(a => a.ActualStart!.Value).ToList();
        TimeSpan? spread = starts.Count == timing.Agents.Count && starts.Count > 0 ? starts.Max() - starts.Min() : null;
        var agents = string.Join("; ", timing.Agents.Select(a => string.Create(CultureInfo.InvariantCulture,
            $"agent {a.Index} {(a.ActualStart is { } at ? Signed(at - timing.Start) + " ms" : "did not say")} (clock offset {Signed(a.Offset)} ms ± {a.RoundTrip.TotalMilliseconds / 2:F1})")));
        var head = spread is { } s
            ? string.Create(CultureInfo.InvariantCulture, $"agents started within {s.TotalMilliseconds:F1} ms of each other")
            : "not every agent said when it started";
        return (spread, $"{head}: {agents}.");
    }

    /// <summary>Milliseconds with their sign, one decimal: +0.3, -12.0 (a custom format would print a rounded-away negative as "-+0.0").</summary>
    public static string Signed(TimeSpan value)
    {
        var milliseconds = Math.Round(value.TotalMilliseconds, 1);
        return string.Create(CultureInfo.InvariantCulture, $"{(milliseconds < 0 ? "-" : "+")}{Math.Abs(milliseconds):F1}");
    }
}
