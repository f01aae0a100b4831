using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>Feeds one scenario's measurements into the run's recorder and progress line.</summary>
/// <param name="secondsIntoSeries">
/// Where the scenario starts in its series, in whole seconds: 0, or for a measured scenario that follows a warm-up burst
/// the second it started on, so that both are recorded on the series' one timeline.
/// </param>
internal sealed class SeriesObserver(RunContext run, string seriesId, int secondsIntoSeries = 0) : ILoadObserver
{
    private readonly TimeSpan _offset = TimeSpan.FromSeconds(secondsIntoSeries);

    public void OnRequest(in RequestSample sample) =>
        run.Recorder.RecordRequest(
            seriesId,
            _offset + sample.CompletedAt,
            sample.Latency,
            run.IsOpenModel ? sample.LatencyFromIntendedStart : null,
            sample.IsSuccess,
            sample.StatusCode,
            sample.ServerTime);

    public void OnProgress(LoadProgress p)
    {
        run.Recorder.RecordUsers(seriesId, secondsIntoSeries + p.Second, p.Users);
        run.Progress.Update(p);
    }
}
