using HdrHistogram;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>
/// What the progress line says, computed apart from printing it: where the series is (warm-up or measured part, and
/// the time of that part), the last second's rate, errors and latency percentiles, and the time left in the run.
/// Requests arrive on many threads (<see cref="Record"/>); the once-a-second <see cref="Next"/> takes what came since.
/// </summary>
/// <remarks>
/// <see cref="Record"/> is on every request's path, so it takes no lock: latencies go into HdrHistogram's
/// <see cref="Recorder"/> (wait-free writers; <see cref="Next"/> swaps its interval histogram) and errors into an
/// interlocked counter. The percentiles are therefore HdrHistogram's, not exact nearest ranks: the value at the
/// percentile's rank given as the top of its bucket, at most 0.1 % (<see cref="SignificantDigits"/> digits) above it.
/// The run's recorded figures are the recorder's, not these.
/// </remarks>
/// <param name="seriesDuration">One series' planned length, warm-up included, for the time left.</param>
internal sealed class ProgressTracker(int seriesCount, TimeSpan seriesDuration)
{
    /// <summary>HdrHistogram's precision for the progress line's percentiles: 0.1 %.</summary>
    internal const int SignificantDigits = 3;

    // One hour, as the recorded histograms; slower requests count at that value.
    private const long HighestMicroseconds = 3_600_000_000;

    private readonly Lock _lock = new();
    private readonly Recorder _latencies = HistogramFactory.With64BitBucketSize().WithValuesFrom(1).WithValuesUpTo(HighestMicroseconds)
        .WithPrecisionOf(SignificantDigits).WithThreadSafeWrites().WithThreadSafeReads().Create();

    // The interval histogram Next last took, handed back to the recorder for the next swap so that none is allocated.
    private HistogramBase? _taken;
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
            _latencies.Reset();
            Interlocked.Exchange(ref _errors, 0);
        }
    }

    /// <summary>One completed request; only successes count towards the percentiles.</summary>
    public void Record(TimeSpan latency, bool success)
    {
        if (success)
        {
            _latencies.RecordValue(Math.Clamp(latency.Ticks / TimeSpan.TicksPerMicrosecond, 0, HighestMicroseconds));
        }
        else
        {
            Interlocked.Increment(ref _errors);
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
            var latencies = _taken = _latencies.GetIntervalHistogram(_taken);
            var errors = Interlocked.Exchange(ref _errors, 0);

            // Counted here rather than from p.Requests, which the engine reads a moment before this call: requests
            // completing in between would count in one second's rate and in the next one's percentiles.
            var rate = (latencies.TotalCount + errors) / (double)seconds;

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
                p.RunningUsers,
                p.IsOpenModel,
                rate,
                errors,
                Percentile(latencies, 50),
                Percentile(latencies, 99),
                p.RequestsInFlight,
                p.Requests,
                p.Failures,
                left,
                _serverThreads,
                _measuredFrom == TimeSpan.MaxValue ? null : _secondsIntoSeries + _measuredFrom.TotalSeconds,
                p.Elapsed >= p.Duration);
        }
    }

    /// <summary>The percentile in ms; null when nothing was recorded.</summary>
    private static double? Percentile(HistogramBase latencies, double percentile) =>
        latencies.TotalCount == 0 ? null : latencies.GetValueAtPercentile(percentile) / 1000.0;
}
