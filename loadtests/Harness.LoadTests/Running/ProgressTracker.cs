using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>
/// What the progress line says, computed apart from printing it: where the series is (warm-up or measured part, and
/// the time of that part), the last second's rate, errors and latency percentiles, and the time left in the run.
/// Requests arrive on many threads (<see cref="Record"/>); the once-a-second <see cref="Next"/> takes what came since.
/// </summary>
/// <param name="seriesDuration">One series' planned length, warm-up included, for the time left.</param>
internal sealed class ProgressTracker(int seriesCount, TimeSpan seriesDuration)
{
    private readonly Lock _lock = new();
    private List<double> _latenciesMs = [];
    private long _errors;
    private double? _serverThreads;
    private string _series = "";
    private int _index;
    private int _secondsIntoSeries;
    private int _lastSecond;
    private TimeSpan _measuredFrom;
    private TimeSpan _after;

    public void StartSeries(int index, string seriesId)
    {
        lock (_lock)
        {
            _index = index;
            _series = seriesId;
            _serverThreads = null;
        }

        StartScenario(0, TimeSpan.Zero, TimeSpan.Zero);
    }

    /// <summary>A scenario of the current series starts (a series runs one, or a warm-up burst and then the measured one).</summary>
    /// <param name="secondsIntoSeries">Where it starts in the series.</param>
    /// <param name="measuredFrom">
    /// Scenario time at which the measured part starts: the warm-up's length when warm-up and profile share the scenario,
    /// zero for a measured scenario, <see cref="TimeSpan.MaxValue"/> for a warm-up that runs apart.
    /// </param>
    /// <param name="after">Planned time of the series' scenarios still to come after this one.</param>
    public void StartScenario(int secondsIntoSeries, TimeSpan measuredFrom, TimeSpan after)
    {
        lock (_lock)
        {
            _secondsIntoSeries = secondsIntoSeries;
            _measuredFrom = measuredFrom;
            _after = after;
            _lastSecond = 0;
            _latenciesMs = [];
            _errors = 0;
        }
    }

    /// <summary>One completed request; only successes count towards the percentiles.</summary>
    public void Record(TimeSpan latency, bool success)
    {
        lock (_lock)
        {
            if (success)
            {
                _latenciesMs.Add(latency.TotalMilliseconds);
            }
            else
            {
                _errors++;
            }
        }
    }

    /// <summary>The OS threads of the target process, as last scraped from its /metrics (<see cref="ServerScraper"/>).</summary>
    public void RecordServerThreads(double threads)
    {
        lock (_lock)
        {
            _serverThreads = threads;
        }
    }

    /// <summary>The second the engine reports, with what was recorded since the previous one.</summary>
    public ProgressSecond Next(LoadProgress p)
    {
        lock (_lock)
        {
            var seconds = Math.Max(1, p.Second - _lastSecond);
            _lastSecond = p.Second;
            var latencies = _latenciesMs;
            var errors = _errors;
            _latenciesMs = new List<double>(latencies.Count);
            _errors = 0;
            latencies.Sort();

            // Counted here rather than from p.Requests, which the engine reads a moment before this call: requests
            // completing in between would count in one second's rate and in the next one's percentiles.
            var rate = (latencies.Count + errors) / (double)seconds;

            var warmUp = p.Elapsed < _measuredFrom;
            var total = warmUp ? (_measuredFrom == TimeSpan.MaxValue ? p.Duration : _measuredFrom) : p.Duration - _measuredFrom;
            // The report at the end may come after the plan's length, while requests drain.
            var elapsed = TimeSpan.FromTicks(Math.Min((warmUp ? p.Elapsed : p.Elapsed - _measuredFrom).Ticks, total.Ticks));
            var leftInSeries = TimeSpan.FromSeconds(Math.Max(0, (p.Duration - p.Elapsed).TotalSeconds)) + _after;
            var left = leftInSeries + (seriesDuration * Math.Max(0, seriesCount - _index - 1));
            return new ProgressSecond(
                _series,
                _index,
                seriesCount,
                _secondsIntoSeries + p.Second,
                warmUp,
                elapsed,
                total,
                p.Users,
                rate,
                errors,
                Percentile(latencies, 0.50),
                Percentile(latencies, 0.99),
                p.RequestsInFlight,
                p.Requests,
                p.Failures,
                left,
                _serverThreads);
        }
    }

    /// <summary>Nearest rank of sorted values; null when there are none.</summary>
    internal static double? Percentile(List<double> sorted, double quantile) =>
        sorted.Count == 0 ? null : sorted[Math.Clamp((int)Math.Ceiling(quantile * sorted.Count) - 1, 0, sorted.Count - 1)];
}
