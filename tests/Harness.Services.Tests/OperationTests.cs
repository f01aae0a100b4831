using Harness.Workloads;

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
            // Act: the first call of a style in a fresh process pays for compiling its path; time the second.
            await client.CallThirdPartyAsync(Fanout, 1, style);
            var reply = await client.CallThirdPartyAsync(Fanout, DelayMs, style);

            // Assert: all calls made, and in parallel where the mode guarantees it (three 300 ms calls in
            // series would take 900 ms). The ThreadPool may wait for starvation injection before it runs
            // sleeping work items side by side, which is the behaviour the harness measures.
            Assert.Equal(Fanout, reply.Calls);
            Assert.True(reply.ElapsedMs >= DelayMs * 0.9, $"{style}: {reply.ElapsedMs} ms");
            if (mode != "threadpool")
            {
                Assert.True(reply.ElapsedMs < DelayMs * 2.5, $"{style}: {reply.ElapsedMs} ms");
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
