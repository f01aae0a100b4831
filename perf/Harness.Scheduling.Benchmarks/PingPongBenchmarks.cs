using BenchmarkDotNet.Attributes;

namespace Harness.Scheduling.Benchmarks;

/// <summary>
/// Two threads hand a token back and forth, so every Wait finds the event unset and really sleeps: the case
/// where the lean event has to use its slow path and can save nothing.
/// </summary>
public class PingPongBenchmarks
{
    private const int RoundTrips = 10_000;

    private readonly AutoResetEvent _autoPing = new(false);
    private readonly AutoResetEvent _autoPong = new(false);
    private readonly LeanAutoResetEvent _leanPing = new();
    private readonly LeanAutoResetEvent _leanPong = new();
    private Thread? _echo;
    private volatile bool _stopping;

    [GlobalSetup(Target = nameof(AutoResetEventRoundTrips))]
    public void StartAutoResetEventEcho() => StartEcho(() => _autoPing.WaitOne(), () => _autoPong.Set());

    [GlobalSetup(Target = nameof(LeanAutoResetEventRoundTrips))]
    public void StartLeanEcho() => StartEcho(() => _leanPing.Wait(), () => _leanPong.Set());

    [Benchmark(Baseline = true, Description = "AutoResetEvent ping-pong x10k")]
    public void AutoResetEventRoundTrips()
    {
        for (var i = 0; i < RoundTrips; i++)
        {
            _autoPing.Set();
            _autoPong.WaitOne();
        }
    }

    [Benchmark(Description = "LeanAutoResetEvent ping-pong x10k")]
    public void LeanAutoResetEventRoundTrips()
    {
        for (var i = 0; i < RoundTrips; i++)
        {
            _leanPing.Set();
            _leanPong.Wait();
        }
    }

    [GlobalCleanup]
    public void StopEcho()
    {
        _stopping = true;
        _autoPing.Set();
        _leanPing.Set();
        _echo?.Join(TimeSpan.FromSeconds(5));
        _autoPing.Dispose();
        _autoPong.Dispose();
        _leanPing.Dispose();
        _leanPong.Dispose();
    }

    private void StartEcho(Action waitForPing, Action sendPong)
    {
        _stopping = false;

        // Runs for the benchmark's lifetime; GlobalCleanup ends it.
        _echo = new Thread(() =>
        {
            while (true)
            {
                waitForPing();
                if (_stopping)
                {
                    return;
                }

                sendPong();
            }
        })
        {
            IsBackground = true,
            Name = "ping-pong echo",
        };
        _echo.Start();
    }
}
