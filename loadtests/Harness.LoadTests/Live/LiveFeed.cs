using Harness.LoadTests.Running;

namespace Harness.LoadTests.Live;

/// <summary>
/// The seconds of the series running now, as the progress line saw them (<see cref="ProgressPrinter.SecondPassed"/>),
/// kept for the live page. A request for what came after the page's last second waits until there is more (a long
/// poll), so the page updates as each second ends without asking again and again.
/// </summary>
internal sealed class LiveFeed
{
    private readonly Lock _lock = new();
    private readonly List<ProgressSecond> _seconds = [];
    private TaskCompletionSource _changed = NewSignal();
    private bool _ended;

    /// <summary>Takes a second: a new series starts the list afresh.</summary>
    public void Add(ProgressSecond second)
    {
        TaskCompletionSource changed;
        lock (_lock)
        {
            if (_seconds.Count > 0 && _seconds[0].SeriesIndex != second.SeriesIndex)
            {
                _seconds.Clear();
            }

            _seconds.Add(second);
            changed = _changed;
            _changed = NewSignal();
        }

        changed.TrySetResult();
    }

    /// <summary>The run is over: waiting requests get their answer, and the page says so.</summary>
    public void End()
    {
        TaskCompletionSource changed;
        lock (_lock)
        {
            _ended = true;
            changed = _changed;
        }

        changed.TrySetResult();
    }

    /// <summary>
    /// The seconds after the page's <paramref name="received"/> of series <paramref name="seriesIndex"/>; all of the current
    /// series when it is another. Waits up to <paramref name="wait"/> for one when there is none yet.
    /// </summary>
    public async Task<LiveUpdate> NextAsync(int seriesIndex, int received, TimeSpan wait, CancellationToken cancellationToken)
    {
        Task changed;
        lock (_lock)
        {
            if (Snapshot(seriesIndex, received) is { } ready)
            {
                return ready;
            }

            changed = _changed.Task;
        }

        try
        {
            await changed.WaitAsync(wait, cancellationToken);
        }
        catch (TimeoutException)
        {
            // Answer with nothing new; the page asks again.
        }

        lock (_lock)
        {
            return Snapshot(seriesIndex, received) ?? new LiveUpdate(null, seriesIndex, received, [], _ended);
        }
    }

    private LiveUpdate? Snapshot(int seriesIndex, int received)
    {
        if (_seconds.Count == 0)
        {
            return _ended ? new LiveUpdate(null, seriesIndex, received, [], true) : null;
        }

        var current = _seconds[0];
        var from = current.SeriesIndex == seriesIndex ? Math.Min(received, _seconds.Count) : 0;
        if (from == _seconds.Count && !_ended)
        {
            return null;
        }

        return new LiveUpdate(
            current.SeriesId + $" ({current.SeriesIndex + 1}/{current.SeriesCount})",
            current.SeriesIndex,
            _seconds.Count,
            [.. _seconds.Skip(from).Select(LiveSecond.Of)],
            _ended);
    }

    private static TaskCompletionSource NewSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}

/// <summary>What the page gets: the series, how many of its seconds there are, the ones it lacks, and whether the run has ended.</summary>
/// <param name="Received">How many seconds of the series the page holds once it has added <paramref name="Seconds"/>.</param>
internal sealed record LiveUpdate(string? Series, int SeriesIndex, int Received, IReadOnlyList<LiveSecond> Seconds, bool Ended);

/// <summary>
/// One second as the page plots it; latencies in ms (null: no success that second); the server's threads as last scraped
/// (null: none yet); where the warm-up ends (<see cref="ProgressSecond.WarmUpEnd"/>).
/// </summary>
internal sealed record LiveSecond(int T, bool WarmUp, int Users, double Rps, long Errors, double? P50, double? P99, double? Threads, double? WarmUpEnd, string Line)
{
    public static LiveSecond Of(ProgressSecond s) =>
        new(s.Second, s.WarmUp, s.Users, s.RequestsPerSecond, s.Errors, s.P50Ms, s.P99Ms, s.ServerThreads, s.WarmUpEnd, s.ToLine());
}
