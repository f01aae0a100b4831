using BenchmarkDotNet.Attributes;

namespace Harness.Scheduling.Benchmarks;

/// <summary>
/// One thread calls Set and then Wait a million times, the shape of the published measurement: the event is
/// always set when Wait is called, so no thread ever has to sleep and any kernel work is pure overhead.
/// </summary>
public class SignalWaitBenchmarks
{
    private const int Pairs = 1_000_000;

    private readonly AutoResetEvent _autoResetEvent = new(false);
    private readonly LeanAutoResetEvent _leanEvent = new();
    private readonly SemaphoreSlim _semaphoreSlim = new(0);

    [Benchmark(Baseline = true, Description = "AutoResetEvent Set+WaitOne x1M")]
    public void AutoResetEventPairs()
    {
        for (var i = 0; i < Pairs; i++)
        {
            _autoResetEvent.Set();
            _autoResetEvent.WaitOne();
        }
    }

    [Benchmark(Description = "LeanAutoResetEvent Set+Wait x1M")]
    public void LeanAutoResetEventPairs()
    {
        for (var i = 0; i < Pairs; i++)
        {
            _leanEvent.Set();
            _leanEvent.Wait();
        }
    }

    [Benchmark(Description = "SemaphoreSlim Release+Wait x1M")]
    public void SemaphoreSlimPairs()
    {
        for (var i = 0; i < Pairs; i++)
        {
            _semaphoreSlim.Release();
            _semaphoreSlim.Wait();
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _autoResetEvent.Dispose();
        _leanEvent.Dispose();
        _semaphoreSlim.Dispose();
    }
}
