using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Running;

/// <summary>Feeds one series' measurements into the recorder and the progress line.</summary>
public sealed class SeriesObserver(RunRecorder recorder, string seriesId, bool openModel, ProgressPrinter progress) : ILoadObserver
{
    public void OnRequest(in RequestSample sample) =>
        recorder.RecordRequest(
            seriesId,
            sample.CompletedAt,
            sample.Latency,
            openModel ? sample.LatencyFromIntendedStart : null,
            sample.IsSuccess,
            sample.StatusCode);

    public void OnProgress(LoadProgress p)
    {
        recorder.RecordUsers(seriesId, p.Second, p.Users);
        progress.Update(p);
    }
}
