using Harness.LoadTests.Recording;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Running;

/// <summary>
/// The run's <see cref="RunRecorder"/> as the runner uses it. The first write to the raw files that fails (disk full,
/// the folder removed) stops the run at once: <see cref="Token"/> is cancelled, the failure kept in
/// <see cref="Failure"/>, and every later call does nothing, so that no load is spent on data that cannot be kept.
/// </summary>
internal sealed class GuardedRecorder : ISeriesSink, IDisposable
{
    private readonly RunRecorder _recorder;
    private readonly CancellationTokenSource _stop;
    private Exception? _failure;

    /// <param name="cancellationToken">The user's interruption; <see cref="Token"/> is cancelled by it too.</param>
    public GuardedRecorder(RunRecorder recorder, CancellationToken cancellationToken)
    {
        _recorder = recorder;
        _stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
    }

    public string RunDirectory => _recorder.RunDirectory;

    /// <summary>Cancelled when the user interrupts the run or a write fails: the token every part of the run obeys.</summary>
    public CancellationToken Token => _stop.Token;

    /// <summary>The first failed write (an <see cref="IOException"/> or <see cref="UnauthorizedAccessException"/>), or null.</summary>
    public Exception? Failure => Volatile.Read(ref _failure);

    public bool Failed => Failure is not null;

    public void AddSeries(SeriesInfo series) => Guard(() => _recorder.AddSeries(series));

    /// <param name="serverTime">The execution time the server reported for a successful request, or null.</param>
    public void RecordRequest(
        string seriesId, TimeSpan completedAt, TimeSpan latency, TimeSpan? latencyFromIntendedStart, bool isSuccess, string? statusCode,
        TimeSpan? serverTime, StreamCall? stream = null)
    {
        if (Failed)
        {
            return;
        }

        try
        {
            _recorder.RecordRequest(seriesId, completedAt, latency, latencyFromIntendedStart, isSuccess, statusCode, serverTime, stream);
        }
        catch (Exception ex) when (IsWriteFailure(ex))
        {
            Fail(ex);
        }
    }

    /// <summary>The series is over: <paramref name="totalRequests"/> (the engine's count) goes to <c>run.json</c>, so a reader can tell what a damaged file lost.</summary>
    public void EndSeries(string seriesId, long totalRequests) => Guard(() => _recorder.EndSeries(seriesId, totalRequests));

    /// <summary>The series' warm-up ended <paramref name="warmUpSeconds"/> after its start: <c>run.json</c> says so.</summary>
    public void SetWarmUp(string seriesId, double warmUpSeconds) => Guard(() => _recorder.SetWarmUp(seriesId, warmUpSeconds));

    /// <summary>The series' ideal, measured after its load: <c>run.json</c> says so.</summary>
    public void SetIdeal(string seriesId, double? latencyMs, double? throughput, string? method) =>
        Guard(() => _recorder.SetIdeal(seriesId, latencyMs, throughput, method));

    public void RecordUsers(string seriesId, int second, int users) => Guard(() => _recorder.RecordUsers(seriesId, second, users));

    public void RecordServer(string seriesId, int second, IReadOnlyDictionary<string, double> metrics) =>
        Guard(() => _recorder.RecordServer(seriesId, second, metrics));

    /// <summary><see cref="RunRecorder.FillServer"/>: values of a second source, never over the target's own.</summary>
    public void FillServer(string seriesId, int second, IReadOnlyDictionary<string, double> metrics) =>
        Guard(() => _recorder.FillServer(seriesId, second, metrics));

    public void RecordEvent(RunEvent runEvent) => Guard(() => _recorder.RecordEvent(runEvent));

    public void Tick(TimeSpan runElapsed) => Guard(() => _recorder.Tick(runElapsed));

    /// <summary><see cref="RunRecorder.Checkpoint"/>: every finished series written whole, the run going on.</summary>
    public void Checkpoint() => Guard(_recorder.Checkpoint);

    /// <summary>Writes what is still open and the final <c>run.json</c>; after a failure, only closes the files.</summary>
    public void Complete()
    {
        if (Failed)
        {
            _recorder.Dispose();
            return;
        }

        Guard(_recorder.Complete);
    }

    public void Dispose()
    {
        _recorder.Dispose();
        _stop.Dispose();
    }

    private void Guard(Action write)
    {
        if (Failed)
        {
            return;
        }

        try
        {
            write();
        }
        catch (Exception ex) when (IsWriteFailure(ex))
        {
            Fail(ex);
        }
    }

    private void Fail(Exception exception)
    {
        if (Interlocked.CompareExchange(ref _failure, exception, null) is null)
        {
            // The token reads as cancelled at once; its callbacks (the engine's among them) run elsewhere, not inside a recorder call.
            _ = _stop.CancelAsync();
        }
    }

    private static bool IsWriteFailure(Exception ex) => ex is IOException or UnauthorizedAccessException;
}
