using System.Collections.Concurrent;
using System.Globalization;

namespace Harness.LoadTests.Recording;

/// <summary>
/// Aggregates a live run into one <see cref="SecondSample"/> per series and second, and appends each second to the
/// run's raw files (docs/raw-format.md) once it is over, releasing it from memory. Thread-safe: recording takes
/// only the lock of its series, so workers of different series never contend.
/// </summary>
/// <remarks>
/// <para>The app calls <see cref="Tick"/> once a second. A second is written once it ended
/// <see cref="LateWindowSeconds"/> ago, which leaves time for requests that completed in it to be recorded by
/// their (possibly descheduled) workers; a crash therefore loses the current second and the window before it.</para>
/// <para>Late data, for a second already written: a request is counted in the series' oldest second still open
/// rather than lost (<see cref="LateRequests"/>); a users or server sample is dropped
/// (<see cref="DroppedLateSamples"/>), since it describes a moment that has passed. <see cref="Complete"/> notes
/// both in the events when they are not zero.</para>
/// <para>A second appears in the files only if something was recorded for it; the app records users every second
/// a series runs, so a second with no completed request still appears, with zero requests.</para>
/// </remarks>
public sealed partial class RunRecorder : IDisposable
{
    /// <summary>Seconds a finished second stays open for late recordings before it is written.</summary>
    public const int DefaultLateWindowSeconds = 2;

    /// <summary>What a success is counted under when the scenario gave no status.</summary>
    public const string SuccessStatus = "OK";

    /// <summary>What a failure is counted under when the scenario gave no status.</summary>
    public const string UnknownStatus = "unknown";

    private readonly ConcurrentDictionary<string, SeriesState> _series = new(StringComparer.Ordinal);
    private readonly Lock _manifestGate = new();
    private readonly Lock _flushGate = new();
    private readonly RawRunWriter _writer;
    private RunManifest _manifest;
    private volatile bool _completed;

    /// <summary>Creates the run folder and writes <c>run.json</c> and an empty <c>events.jsonl</c>.</summary>
    /// <param name="manifest">The run's settings; its <see cref="RunManifest.Series"/> are the series known at the start.</param>
    /// <param name="runDirectory">A new folder, or an empty one.</param>
    public RunRecorder(RunManifest manifest, string runDirectory)
        : this(manifest, runDirectory, DefaultLateWindowSeconds)
    {
    }

    /// <param name="manifest">The run's settings; its <see cref="RunManifest.Series"/> are the series known at the start.</param>
    /// <param name="runDirectory">A new folder, or an empty one.</param>
    /// <param name="lateWindowSeconds">How long a finished second stays open for late recordings (0 or more).</param>
    public RunRecorder(RunManifest manifest, string runDirectory, int lateWindowSeconds)
    {
        ArgumentNullException.ThrowIfNull(manifest);
        ArgumentOutOfRangeException.ThrowIfNegative(lateWindowSeconds);
        if (manifest.FormatVersion != RunManifest.CurrentFormatVersion)
        {
            throw new ArgumentException(
                $"The recorder writes format version {RunManifest.CurrentFormatVersion}, not {manifest.FormatVersion}.", nameof(manifest));
        }

        foreach (var series in manifest.Series)
        {
            ValidateNewSeries(series);
            _series[series.Id] = new SeriesState(series);
        }

        LateWindowSeconds = lateWindowSeconds;
        _manifest = manifest with { Series = [.. manifest.Series] };
        _writer = new RawRunWriter(runDirectory);
        foreach (var series in manifest.Series)
        {
            _writer.CreateSeries(series.Id);
        }

        _writer.WriteManifest(_manifest);
    }

    public string RunDirectory => _writer.RunDirectory;

    public int LateWindowSeconds { get; }

    /// <summary>The manifest as last written, with every series added so far.</summary>
    public RunManifest Manifest
    {
        get
        {
            lock (_manifestGate)
            {
                return _manifest;
            }
        }
    }

    /// <summary>Requests that completed in a second already written, counted in the next open second instead.</summary>
    public long LateRequests => _series.Values.Sum(series => Interlocked.Read(ref series.LateRequests));

    /// <summary>Users and server samples for a second already written, dropped.</summary>
    public long DroppedLateSamples => _series.Values.Sum(series => Interlocked.Read(ref series.DroppedLateSamples));

    /// <summary>Seconds held in memory, not yet written.</summary>
    internal int OpenSecondCount => _series.Values.Sum(series =>
    {
        lock (series.Gate)
        {
            return series.OpenSeconds.Count;
        }
    });

    /// <summary>Records one completed request (the hot path: many threads, thousands of calls a second).</summary>
    /// <param name="seriesId">The series it belongs to.</param>
    /// <param name="completedAt">When it completed, since the series' start: it counts in second ⌊completedAt⌋.</param>
    /// <param name="latency">Service time, from the moment it was sent.</param>
    /// <param name="latencyFromIntendedStart">Open model: time from its intended start; null in the closed model.</param>
    /// <param name="isSuccess">
    /// True: the latency goes to <see cref="SecondSample.Latency"/> (and the intended-start latency, server time and
    /// queue time are kept). False: a failure, counted under <paramref name="statusCode"/>, its latency in
    /// <see cref="SecondSample.FailureLatency"/>, so failures never mix into the latency of what succeeded.
    /// </param>
    /// <param name="statusCode">
    /// Why it failed (e.g. <c>Unavailable</c>, <c>http-413</c>, <c>timeout</c>; "unknown" when null), or on success the status it
    /// succeeded with (<see cref="SuccessStatus"/> when null), counted in <see cref="SecondSample.SuccessCounts"/>.
    /// </param>
    /// <param name="serverTime">The execution time the server reported for a successful request, or null; ignored on failure.</param>
    /// <param name="stream">A successful streaming call's messages, or null for a unary call; ignored on failure (<see cref="StreamSample"/>).</param>
    public void RecordRequest(
        string seriesId, TimeSpan completedAt, TimeSpan latency, TimeSpan? latencyFromIntendedStart, bool isSuccess, string? statusCode,
        TimeSpan? serverTime = null, StreamCall? stream = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(completedAt, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThan(latency, TimeSpan.Zero);
        if (latencyFromIntendedStart < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(latencyFromIntendedStart), latencyFromIntendedStart, "Latency cannot be negative.");
        }

        if (serverTime < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(serverTime), serverTime, "Server time cannot be negative.");
        }

        stream?.Validate();

        var series = Series(seriesId);
        var second = ToSecond(completedAt);
        lock (series.Gate)
        {
            ThrowIfClosed(series);
            if (second <= series.FlushedThrough)
            {
                second = series.FlushedThrough + 1;
                series.LateRequests++;
            }

            var builder = series.Open(second);
            if (isSuccess)
            {
                builder.Success(latency, latencyFromIntendedStart, statusCode ?? SuccessStatus, serverTime, stream);
            }
            else
            {
                builder.Failure(latency, statusCode ?? UnknownStatus);
            }
        }
    }

    /// <summary>Closed model: the virtual users the profile asks for in <paramref name="second"/> (its target); open model: the target arrival rate. The last value wins.</summary>
    public void RecordUsers(string seriesId, int second, int users)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(second);
        ArgumentOutOfRangeException.ThrowIfNegative(users);
        var series = Series(seriesId);
        lock (series.Gate)
        {
            if (OpenForSample(series, second) is { } builder)
            {
                builder.Users = users;
            }
        }
    }

    /// <summary>
    /// Server-side values read in <paramref name="second"/>: the target's /metrics, and, under <c>matrix</c>, its
    /// container's stats. Values of one second are merged by key; the last value of a key wins.
    /// </summary>
    public void RecordServer(string seriesId, int second, IReadOnlyDictionary<string, double> metrics) =>
        MergeServer(seriesId, second, metrics, overwrite: true);

    /// <summary>
    /// Server-side values from a second source, merged into <paramref name="second"/> only under the keys it does not
    /// hold yet: a key the target's own /metrics gives keeps the target's value, whichever of the two is recorded first
    /// (a later <see cref="RecordServer"/> still overwrites a filled key).
    /// </summary>
    public void FillServer(string seriesId, int second, IReadOnlyDictionary<string, double> metrics) =>
        MergeServer(seriesId, second, metrics, overwrite: false);

    private void MergeServer(string seriesId, int second, IReadOnlyDictionary<string, double> metrics, bool overwrite)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(second);
        ArgumentNullException.ThrowIfNull(metrics);
        var series = Series(seriesId);
        lock (series.Gate)
        {
            if (OpenForSample(series, second) is not { } builder)
            {
                return;
            }

            var server = builder.Server ??= new Dictionary<string, double>(StringComparer.Ordinal);
            foreach (var (key, value) in metrics)
            {
                if (overwrite)
                {
                    server[key] = value;
                }
                else
                {
                    server.TryAdd(key, value);
                }
            }
        }
    }

    /// <summary>Appends the event to <c>events.jsonl</c> at once.</summary>
    /// <exception cref="ArgumentException">It names a series the run does not have.</exception>
    public void RecordEvent(RunEvent runEvent)
    {
        ArgumentNullException.ThrowIfNull(runEvent);
        ThrowIfCompleted();
        if (runEvent.SeriesId is { } id && !_series.ContainsKey(id))
        {
            throw new ArgumentException($"The run has no series '{id}'.", nameof(runEvent));
        }

        _writer.AppendEvent(runEvent);
    }

    /// <summary>The once-a-second call: writes every second that ended <see cref="LateWindowSeconds"/> or more before <paramref name="runElapsed"/>.</summary>
    /// <param name="runElapsed">Time since the run's start (second 0 of the run, <see cref="RunManifest.StartedAt"/>).</param>
    public void Tick(TimeSpan runElapsed) => Flush((int)Math.Min(Math.Floor(runElapsed.TotalSeconds), int.MaxValue) - LateWindowSeconds);

    /// <summary>
    /// Writes and releases every second that ends at or before run second <paramref name="upToSecondExclusive"/>:
    /// series second <c>s</c> covers run time [OffsetSeconds + s, OffsetSeconds + s + 1). Later recordings for those
    /// seconds are late (see the remarks of <see cref="RunRecorder"/>). Does nothing once the run is complete, so
    /// a timer's last tick may race <see cref="Complete"/> harmlessly.
    /// </summary>
    public void Flush(int upToSecondExclusive)
    {
        if (!_completed)
        {
            FlushSeries(upToSecondExclusive, close: false);
        }
    }

    /// <summary>
    /// Writes every second recorded so far, without ending the run: called
    /// between series, so that a reader of the folder (the <c>--repeat auto</c> look between rounds) sees every
    /// finished series whole. Recordings for those seconds that arrive later count as late.
    /// </summary>
    public void Checkpoint()
    {
        if (_completed)
        {
            return;
        }

        // Appended lines reach the operating system as they are written (RawRunWriter), so a reader sees them now.
        FlushSeries(int.MaxValue, close: false);
    }

    /// <summary>
    /// Ends the run: writes every second still open, an event noting late recordings if there were any, and the final
    /// <c>run.json</c>, puts the files on disk and closes them. Recording afterwards throws.
    /// </summary>
    public void Complete()
    {
        lock (_manifestGate)
        {
            ThrowIfCompleted();
            _completed = true;
        }

        FlushSeries(int.MaxValue, close: true);
        var (late, dropped) = (LateRequests, DroppedLateSamples);
        if (late > 0 || dropped > 0)
        {
            _writer.AppendEvent(new RunEvent(
                _series.Values.Max(series => series.Info.OffsetSeconds + series.FlushedThrough + 1),
                "note",
                null,
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"{late} requests completed in seconds already written and were counted in the next second; {dropped} late users or server samples were dropped.")));
        }

        _writer.WriteManifest(Manifest);
        _writer.Flush(toDisk: true);
        _writer.Dispose();
    }

    /// <summary>Closes the files without writing the seconds still open: what a crash would leave. Call <see cref="Complete"/> to finish a run.</summary>
    public void Dispose() => _writer.Dispose();

    private void FlushSeries(int upToSecondExclusive, bool close)
    {
        lock (_flushGate)
        {
            foreach (var series in _series.Values)
            {
                var lastComplete = close ? int.MaxValue - 1 : (int)Math.Clamp(Math.Floor(upToSecondExclusive - series.Info.OffsetSeconds) - 1, -1, int.MaxValue - 1);
                List<SecondSample>? samples = null;
                lock (series.Gate)
                {
                    if (series.Closed)
                    {
                        continue;
                    }

                    series.Closed = close;
                    if (lastComplete <= series.FlushedThrough)
                    {
                        continue;
                    }

                    foreach (var second in series.OpenSeconds.Keys.Where(second => second <= lastComplete).Order().ToList())
                    {
                        (samples ??= []).Add(series.OpenSeconds[second].ToSample(second));
                        series.OpenSeconds.Remove(second);
                    }

                    // A close leaves FlushedThrough at the last second written: the note of late recordings is placed there.
                    series.FlushedThrough = close ? (samples?[^1].Second ?? series.FlushedThrough) : lastComplete;
                }

                if (samples is not null)
                {
                    _writer.AppendSeconds(series.Info.Id, samples);
                }
            }
        }
    }

    private SeriesState Series(string seriesId) =>
        _series.TryGetValue(seriesId, out var series)
            ? series
            : throw new ArgumentException($"The run has no series '{seriesId}'; add it with AddSeries first.", nameof(seriesId));

    private static int ToSecond(TimeSpan sinceSeriesStart) => (int)Math.Min(sinceSeriesStart.Ticks / TimeSpan.TicksPerSecond, int.MaxValue - 1);

    // A users or server sample for a second already written describes a moment that has passed: dropped, and counted.
    // The caller holds the series' gate.
    private static SecondBuilder? OpenForSample(SeriesState series, int second)
    {
        ThrowIfClosed(series);
        if (second <= series.FlushedThrough)
        {
            series.DroppedLateSamples++;
            return null;
        }

        return series.Open(second);
    }

    private void ThrowIfCompleted()
    {
        if (_completed)
        {
            throw new InvalidOperationException("The run is complete; nothing more can be recorded.");
        }
    }

    private static void ThrowIfClosed(SeriesState series)
    {
        if (series.Closed)
        {
            throw new InvalidOperationException("The run is complete; nothing more can be recorded.");
        }
    }
}
