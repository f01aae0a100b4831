using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>Feeds one series' measurements into the run's recorder and progress line.</summary>
internal sealed class SeriesObserver(RunContext run, string seriesId) : ILoadObserver
{
    public void OnRequest(in RequestSample sample) =>
        run.Recorder.RecordRequest(
            seriesId,
            sample.CompletedAt,
            sample.Latency,
            run.IsOpenModel ? sample.LatencyFromIntendedStart : null,
            sample.IsSuccess,
            sample.StatusCode,
            sample.ServerTime);

    public void OnProgress(LoadProgress p)
    {
        run.Recorder.RecordUsers(seriesId, p.Second, p.Users);
        run.Progress.Update(p);
    }
}
