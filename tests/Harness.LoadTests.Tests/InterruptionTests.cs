using System.Runtime.InteropServices;
using Harness.LoadTests.Common;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

public sealed class InterruptionTests
{
    [Fact]
    public void FirstSignal_CancelsTheRun_AndLeavesTheCommandsExitCode()
    {
        // Arrange
        var stops = 0;
        using var interruption = new Interruption(() => stops++, _ => throw new InvalidOperationException("no exit on the first signal"));

        // Act
        interruption.OnSignal(PosixSignal.SIGTERM);

        // Assert
        Assert.True(interruption.Token.IsCancellationRequested);
        Assert.Equal(0, stops);
        Assert.Equal(ExitCodes.Interrupted, interruption.ExitCode(ExitCodes.Interrupted));
    }

    [Theory]
    [InlineData(PosixSignal.SIGTERM, ExitCodes.Terminated)]
    [InlineData(PosixSignal.SIGINT, ExitCodes.Interrupted)]
    public void SecondSignal_StopsEverything_AndItsCodeWinsOverTheCommands(PosixSignal second, int expected)
    {
        var stops = 0;
        var exits = new List<int>();
        using var interruption = new Interruption(() => stops++, exits.Add);

        interruption.OnSignal(PosixSignal.SIGTERM);
        interruption.OnSignal(second);

        Assert.Equal(1, stops);
        Assert.Equal([expected], exits);
        Assert.Equal(expected, interruption.ExitCode(ExitCodes.Interrupted));
    }

    [Fact]
    public async Task TwoSignalsAtOnce_OneCancels_TheOtherStops()
    {
        // The runtime gives each termination signal a thread of its own: two at once must still be a first and a second.
        for (var attempt = 0; attempt < 200; attempt++)
        {
            var stops = 0;
            using var interruption = new Interruption(() => Interlocked.Increment(ref stops), _ => { });
            using var start = new Barrier(2);

            await Task.WhenAll(
                Task.Run(() => { start.SignalAndWait(); interruption.OnSignal(PosixSignal.SIGTERM); }),
                Task.Run(() => { start.SignalAndWait(); interruption.OnSignal(PosixSignal.SIGTERM); }));

            Assert.True(interruption.Token.IsCancellationRequested);
            Assert.Equal(1, stops);
            Assert.Equal(ExitCodes.Terminated, interruption.ExitCode(ExitCodes.Interrupted));
        }
    }

    [Fact]
    public async Task CommandReturningDuringTheStop_WaitsForIt()
    {
        // Killing the services ends the run's clean-up, so Main can return while containers are still being removed.
        using var stopping = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        using var interruption = new Interruption(() => { stopping.Set(); release.Wait(); }, _ => { });
        interruption.OnSignal(PosixSignal.SIGTERM);
        var handler = Task.Run(() => interruption.OnSignal(PosixSignal.SIGTERM));
        Assert.True(stopping.Wait(TimeSpan.FromSeconds(10)));

        var exit = Task.Run(() => interruption.ExitCode(ExitCodes.Interrupted));
        var returnedEarly = await Task.WhenAny(exit, Task.Delay(TimeSpan.FromMilliseconds(100))) == exit;
        release.Set();

        Assert.False(returnedEarly);
        Assert.Equal(ExitCodes.Terminated, await exit.WaitAsync(TimeSpan.FromSeconds(10)));
        await handler.WaitAsync(TimeSpan.FromSeconds(10));
    }
}
