using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>A streaming step's figures: measured by <see cref="StreamClock"/>, passed to the observer for successes only.</summary>
public sealed class StreamTests
{
    [Fact]
    public async Task The_clock_counts_messages_each_way_and_times_the_first_reply_and_the_gaps_between_replies()
    {
        // Arrange
        var clock = StreamClock.Start();

        // Act: two sends from two threads, then three replies 30 ms apart.
        await Task.WhenAll(Task.Run(clock.Sent), Task.Run(clock.Sent));
        await Task.Delay(30);
        clock.Received();
        var early = clock.Figures;
        await Task.Delay(30);
        clock.Received();
        await Task.Delay(30);
        clock.Received();
        var figures = clock.Figures;

        // Assert
        Assert.Equal((2, 3), (figures.MessagesSent, figures.MessagesReceived));
        Assert.InRange(figures.FirstMessage!.Value, TimeSpan.FromMilliseconds(25), TimeSpan.FromSeconds(10));
        Assert.Equal(2, figures.MessageGaps.Count);
        Assert.All(figures.MessageGaps, gap => Assert.InRange(gap, TimeSpan.FromMilliseconds(25), TimeSpan.FromSeconds(10)));
        Assert.Empty(early.MessageGaps);
        Assert.Equal(1, early.MessagesReceived);
    }

    [Fact]
    public void A_clock_without_replies_has_no_first_message_and_a_long_stream_keeps_its_first_gaps_and_its_count()
    {
        var silent = StreamClock.Start();
        silent.Sent();
        Assert.Null(silent.Figures.FirstMessage);
        Assert.Empty(silent.Figures.MessageGaps);

        var endless = StreamClock.Start();
        for (var i = 0; i < StreamFigures.MaxGaps + 10; i++)
        {
            endless.Received();
        }

        Assert.Equal(StreamFigures.MaxGaps + 10, endless.Figures.MessagesReceived);
        Assert.Equal(StreamFigures.MaxGaps, endless.Figures.MessageGaps.Count);
    }

    [Fact]
    public async Task Stream_figures_are_copied_from_successful_results_only()
    {
        // Arrange
        var observer = new RecordingObserver();
        var stream = new StreamFigures(3, 5, TimeSpan.FromMilliseconds(2), [TimeSpan.FromMilliseconds(1)]);

        // Act
        var result = await Run(
            async ctx =>
            {
                await Task.Delay(10, ctx.CancellationToken);
                return ctx.InvocationNumber % 2 == 0 ? StepResult.Ok() with { Stream = stream } : StepResult.Fail("CANCELLED") with { Stream = stream };
            },
            observer,
            stages: new LoadSimulation.Inject(20, S(1), S(0.5)));

        // Assert
        Assert.Equal(10, result.Requests);
        Assert.All(observer.Samples, s => Assert.Equal(s.IsSuccess ? stream : null, s.Stream));
        Assert.Contains(observer.Samples, s => s.Stream is not null);
        Assert.Contains(observer.Samples, s => !s.IsSuccess);
    }
}
