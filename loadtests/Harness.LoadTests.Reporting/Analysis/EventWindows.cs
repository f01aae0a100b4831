using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// A time in which a series' target was down or under a fault: from a <c>…-down</c> or <c>…-start</c> event to the
/// next <c>…-up</c> or <c>…-end</c> event of the same stem (<c>target-down</c> → <c>target-up</c>,
/// <c>fault-start</c> → <c>fault-end</c>). Times are seconds since the series started.
/// </summary>
/// <param name="To">When the closing event came; null when none did before the series' events ended.</param>
internal sealed record EventWindow(string Kind, double From, double? To, string Message);

/// <summary>Pairs a series' events into <see cref="EventWindow"/>s (the report shades the same windows on its charts).</summary>
internal static class EventWindows
{
    public static bool Opens(string kind)
    {
        ArgumentNullException.ThrowIfNull(kind);
        return kind.EndsWith("-down", StringComparison.OrdinalIgnoreCase) || kind.EndsWith("-start", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>Whether <paramref name="kind"/> closes a window opened by <paramref name="opening"/>.</summary>
    public static bool Closes(string opening, string kind)
    {
        ArgumentNullException.ThrowIfNull(opening);
        ArgumentNullException.ThrowIfNull(kind);
        var dash = opening.LastIndexOf('-');
        if (dash < 0)
        {
            return false;
        }

        var stem = opening[..dash];
        return string.Equals(kind, stem + "-up", StringComparison.OrdinalIgnoreCase)
            || string.Equals(kind, stem + "-end", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>
    /// The windows of one series: its own events and the run-wide ones (no series id), on the series' time axis.
    /// Each opening event is closed by the next closing event of its stem at or after it.
    /// </summary>
    public static IReadOnlyList<EventWindow> For(SeriesInfo series, IEnumerable<RunEvent> runEvents)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(runEvents);
        var events = runEvents
            .Where(e => e.SeriesId is null || e.SeriesId == series.Id)
            .Select(e => (At: e.AtSeconds - series.OffsetSeconds, Event: e))
            .OrderBy(e => e.At)
            .ToList();
        var windows = new List<EventWindow>();
        for (var i = 0; i < events.Count; i++)
        {
            var (at, opening) = events[i];
            if (!Opens(opening.Kind) || at < 0)
            {
                continue;
            }

            var closing = events.Skip(i + 1).FirstOrDefault(e => e.Event.SeriesId == opening.SeriesId && Closes(opening.Kind, e.Event.Kind));
            windows.Add(new EventWindow(opening.Kind, at, closing.Event is null ? null : closing.At, opening.Message));
        }

        return windows;
    }
}
