using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests.Tracing;

public sealed class LogThrottleTests
{
    [Fact]
    public void AFloodOfOneEvent_KeepsItsLevelOnceASecond_AndIsDebugInBetween()
    {
        // Arrange
        var clock = new ManualClock();
        var throttle = new LogThrottle(clock);
        var levels = new List<LogLevel>();

        // Act: events at 0, 0.5 s, 0.999 s, 1 s, 1.2 s and 2.5 s.
        foreach (var ms in new[] { 0, 500, 999, 1000, 1200, 2500 })
        {
            clock.Milliseconds = ms;
            levels.Add(throttle.Level(LogLevel.Warning));
        }

        // Assert
        Assert.Equal([LogLevel.Warning, LogLevel.Debug, LogLevel.Debug, LogLevel.Warning, LogLevel.Debug, LogLevel.Warning], levels);
    }

    [Fact]
    public void DebugEvents_AreNeverHeldBack_NorTakeTheSecond()
    {
        // Arrange
        var throttle = new LogThrottle(new ManualClock());

        // Act
        var debug = Enumerable.Range(0, 3).Select(_ => throttle.Level(LogLevel.Debug)).ToList();
        var warning = throttle.Level(LogLevel.Warning);

        // Assert
        Assert.All(debug, l => Assert.Equal(LogLevel.Debug, l));
        Assert.Equal(LogLevel.Warning, warning);
    }

    private sealed class ManualClock : TimeProvider
    {
        public long Milliseconds { get; set; }

        public override long TimestampFrequency => 1000;

        public override long GetTimestamp() => Milliseconds;
    }
}
