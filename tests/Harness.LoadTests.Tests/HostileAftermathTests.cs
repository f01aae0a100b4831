using Harness.GrpcService;
using Harness.LoadTests.Tests.Calls;
using Harness.ServiceDefaults;

namespace Harness.LoadTests.Tests;

/// <summary>
/// A hostile server must not harm the runs after it in the same process. Grpc.Net.Client (2.85) returns a buffer to
/// ArrayPool.Shared twice when a reply announces a message it cannot rent a buffer for (2 GiB − 1 bytes), unless its
/// MaxReceiveMessageSize fails the reply first; after that, two renters share one array, and the process's HTTP/2
/// connections to healthy servers send and read corrupted frames (Kestrel's GOAWAY FRAME_SIZE_ERROR, "Unexpected
/// compressed flag value"), counted as INTERNAL (docs/hostile-servers.md, "The largest reply").
/// </summary>
/// <remarks>
/// Without the bound, 10 one-second --call runs after such a hostile run failed 913 of 375,390 calls to a healthy
/// service; with it, none of 626,293 (2-core VM, loopback).
/// </remarks>
[Trait("Category", "EndToEnd")]
[Collection(nameof(HostileRunTests))]
public sealed class HostileAftermathTests
{
    [Fact]
    public async Task GrpcNetClient_AfterAReplyAnnouncingTwoGiB_CallsAHealthyServiceWithoutAFailure()
    {
        // Arrange: a Grpc.Net.Client run against a server whose every reply announces 2 GiB − 1 bytes.
        await using (var hostile = HostileServers.Start("grpc-length-2g"))
        {
            var (exitCode, text) = await HarnessRun.InvokeAsync(
                "run", "--target", $"grpc={hostile.Address},metrics={hostile.Address}", "--mode-label", "hostile", "--operations", "compute",
                "--grpc-client", "grpcnet", "--profile", "quick", "--time-scale", "0.1", "--warm-up", "0", "--timeout", "2s",
                "--output", HarnessRun.TempFolder());
            Assert.True(exitCode == 0, text);
        }

        await using var app = GrpcApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal", "--Listen:AdminPort=0"]);
        await app.StartAsync();

        // Act: a --call run (Grpc.Net.Client again) against a healthy service in the same process.
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={app.GetBoundAddress()}", "--call", "harness.v1.HarnessService/Compute", "--data", """{"iterations":100}""", .. CallRuns.Short]);
        await app.StopAsync();

        // Assert: tens of thousands of calls, not one of them failed.
        CallRuns.AssertServedWithoutErrors(run, "grpc-compute-external");
    }
}
