using Harness.Agreements;
using Harness.Contracts.Grpc;

namespace Harness.Services.Tests;

/// <summary>Every stack × mode answers both operations, in every call style.</summary>
public sealed class OperationTests
{
    public static TheoryData<Stack, string> StacksAndModes()
    {
        var data = new TheoryData<Stack, string>();
        foreach (var stack in Enum.GetValues<Stack>())
        {
            foreach (var mode in new[] { "threadpool", "iocp", "custompool" })
            {
                data.Add(stack, mode);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(StacksAndModes))]
    public async Task Compute_ReturnsTheLargestFibonacciNumberUpTo100(Stack stack, string mode)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(stack, mode);
        using var client = harness.CreateClient();

        // Act
        var reply = await client.ComputeAsync(iterations: 10_000);

        // Assert
        Assert.Equal(89, reply.Result);
        Assert.True(reply.ThreadId > 0);
        Assert.True(reply.ElapsedMs >= 0);
    }

    [Theory]
    [MemberData(nameof(StacksAndModes))]
    public async Task CallThirdParty_MakesEveryCallInEveryStyle(Stack stack, string mode)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(stack, mode);
        using var client = harness.CreateClient();
        const int Fanout = 3;
        const int DelayMs = 300;

        foreach (var style in CallStyles.Names)
        {
            // Act: the first call of a style in a fresh process pays for compiling its path; time the calls after
            // it. The best of three is kept: on a shared 2-core machine one call in a few hundred (seen only
            // right after start-up) is held up by something outside the mode, and the question here is whether
            // the mode lets the calls overlap at all.
            await client.CallThirdPartyAsync(Fanout, 1, style);
            var replies = new List<CallThirdPartyReply>();
            for (var attempt = 0; attempt < 3; attempt++)
            {
                replies.Add(await client.CallThirdPartyAsync(Fanout, DelayMs, style));
                if (mode == "threadpool" || replies[^1].ElapsedMs < DelayMs * 2.5)
                {
                    break;
                }
            }

            var best = replies.MinBy(r => r.ElapsedMs)!;

            // Assert: all calls made, and in parallel where the mode guarantees it (three 300 ms calls in
            // series would take 900 ms). The ThreadPool may wait for starvation injection before it runs
            // sleeping work items side by side, which is the behaviour the harness measures.
            Assert.All(replies, r => Assert.Equal(Fanout, r.Calls));
            Assert.All(replies, r => Assert.True(r.ElapsedMs >= DelayMs * 0.9, $"{style}: {r.ElapsedMs} ms"));
            if (mode != "threadpool")
            {
                var times = string.Join(", ", replies.Select(r => $"{r.ElapsedMs:F0} ms"));
                Assert.True(best.ElapsedMs < DelayMs * 2.5, $"{style}: {times}");
            }
        }
    }

    [Theory]
    [InlineData(Stack.Soap)]
    [InlineData(Stack.Grpc)]
    public async Task CallThirdParty_WithParallelismOne_RunsTheCallsOneAfterAnother(Stack stack)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(stack, "custompool");
        using var client = harness.CreateClient();

        // Act
        var reply = await client.CallThirdPartyAsync(fanout: 4, delayMs: 100, style: "blocking", parallelism: 1);

        // Assert
        Assert.Equal(4, reply.Calls);
        Assert.True(reply.ElapsedMs >= 400 * 0.9, $"4 sequential 100 ms calls took {reply.ElapsedMs} ms");
        Assert.Equal(1, reply.DistinctThreads);
    }
}
