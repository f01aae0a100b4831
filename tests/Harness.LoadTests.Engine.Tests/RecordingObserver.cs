using System.Collections.Concurrent;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>Keeps every sample (unless told not to, for steps that finish at once) and every progress report.</summary>
internal sealed class RecordingObserver(bool keepSamples = true) : ILoadObserver
{
    private readonly ConcurrentQueue<RequestSample> _samples = new();
    private readonly ConcurrentQueue<LoadProgress> _progress = new();

    public IReadOnlyList<RequestSample> Samples => [.. _samples.OrderBy(s => s.StartedAt)];

    public IReadOnlyList<LoadProgress> Progress => [.. _progress];

    public void OnRequest(in RequestSample sample)
    {
        if (keepSamples)
        {
            _samples.Enqueue(sample);
        }
    }

    public void OnProgress(LoadProgress progress) => _progress.Enqueue(progress);
}
