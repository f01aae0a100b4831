namespace Harness.ServiceDefaults.Tests;

public sealed class ProcessCountersTests
{
    [Theory]
    [InlineData("voluntary_ctxt_switches:\t123", "voluntary_ctxt_switches:", true, 123)]
    [InlineData("nonvoluntary_ctxt_switches:\t7", "nonvoluntary_ctxt_switches:", true, 7)]
    [InlineData("nonvoluntary_ctxt_switches:\t7", "voluntary_ctxt_switches:", false, 0)]
    [InlineData("Threads:\tmany", "Threads:", false, 0)]
    public void TryField_ReadsOnlyTheNamedNumericField(string line, string name, bool found, long value)
    {
        Assert.Equal(found, ProcessCounters.TryField(line, name, out var read));
        Assert.Equal(value, read);
    }

    [Fact]
    public void Read_CountsContextSwitchesThatGrowWhenTheProcessBlocks()
    {
        var before = ProcessCounters.Read();

        // Each sleep is a voluntary switch, here on a thread other than the main one.
        var sleeper = new Thread(() =>
        {
            for (var i = 0; i < 20; i++)
            {
                Thread.Sleep(1);
            }
        });
        sleeper.Start();
        sleeper.Join();

        var after = ProcessCounters.Read();
        Assert.True(after.VoluntaryContextSwitches >= before.VoluntaryContextSwitches + 20);
        Assert.True(after.OsThreads > 0);
        Assert.True(after.WorkingSetBytes > 0);
    }
}
