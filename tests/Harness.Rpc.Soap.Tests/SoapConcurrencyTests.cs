using System.Diagnostics;

namespace Harness.Rpc.Soap.Tests;

[Collection(SoapServerCollection.Name)]
public sealed class SoapConcurrencyTests(SoapServerFixture server)
{
    [Fact]
    public void HundredConcurrentSynchronousInvokes_AllSucceed()
    {
        const int Callers = 100;
        SoapClient client = server.CreateClient(SoapServerFixture.CalculatorPath);
        var results = new long[Callers];
        var failures = new Exception?[Callers];
        using var start = new ManualResetEventSlim();
        // Dedicated threads: 100 blocked pool threads would wait on the pool's slow thread injection instead.
        Thread[] callers = Enumerable.Range(0, Callers).Select(i => new Thread(() =>
        {
            start.Wait();
            try
            {
                results[i] = client.Invoke<ComputeRequest, ComputeResponse>("Compute", new ComputeRequest { Iterations = i }).Sum;
            }
            catch (Exception e)
            {
                failures[i] = e;
            }
        })
        { IsBackground = true }).ToArray();

        foreach (Thread caller in callers)
        {
            caller.Start();
        }

        start.Set();
        var elapsed = Stopwatch.StartNew();
        Assert.All(callers, caller => Assert.True(caller.Join(Remaining(TimeSpan.FromSeconds(30), elapsed))));

        Assert.All(failures, Assert.Null);
        Assert.Equal(Enumerable.Range(0, Callers).Select(i => (long)i * (i + 1) / 2), results);
    }

    private static TimeSpan Remaining(TimeSpan budget, Stopwatch elapsed) =>
        elapsed.Elapsed < budget ? budget - elapsed.Elapsed : TimeSpan.Zero;
}
