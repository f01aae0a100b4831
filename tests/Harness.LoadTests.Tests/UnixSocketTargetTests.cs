using Harness.GrpcService;
using Harness.LoadTests.Tests.Calls;

namespace Harness.LoadTests.Tests;

/// <summary><c>--target grpc=unix:///path</c>: the harness's own operations over a Unix domain socket, and the paths it refuses.</summary>
[Trait("Category", "EndToEnd")]
public sealed class UnixSocketTargetTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("harness-uds-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task GrpcServiceOnASocket_AnswersARun()
    {
        // Arrange: the service's main endpoint on a socket too; its /metrics on the admin port (TCP).
        var socket = Path.Combine(_folder, "grpc.sock");
        await using var app = GrpcApp.Build([
            "--Listen:Port=0", "--Listen:AdminPort=0", $"--Listen:UnixSocket={socket}", "--Serilog:MinimumLevel:Default=Fatal",
            "--Scheduling:Mode=threadpool"]);
        await app.StartAsync();
        var admin = new Uri(app.Urls.ElementAt(1));

        // Act: about 1 s of calls that wait 10 ms without a thread (no calibration: their ideal is the wait).
        var run = await CallRuns.RunAsync(
            "--target", $"grpc=unix://{socket},metrics={admin}", "--operations", "call-third-party", "--fanout", "1",
            "--delay-ms", "10", "--style", "task-delay", "--profile", "constant", "--users", "2", "--time-scale", "0.01",
            "--warm-up", "0");
        await app.StopAsync();

        // Assert: served without a failure, by the address given, and the service's counters were read beside it.
        CallRuns.AssertServedWithoutErrors(run, "grpc-call-third-party-external");
        Assert.Equal($"unix://{socket}", run.Series!.Target);
        Assert.Contains(run.Seconds, s => s.Server.Count > 0);
    }

    [Theory]
    [InlineData("grpc=unix://{0}/none.sock,metrics=http://127.0.0.1:9", "no socket at '{0}/none.sock'")]
    [InlineData("grpc=unix://{0}/grpc.sock", "a Unix socket target has no port to find its /metrics by")]
    [InlineData("soap=unix://{0}/grpc.sock", "a Unix socket target is for gRPC only")]
    [InlineData("grpc=unix://relative.sock", "grpc=unix:///path/to.sock")]
    public async Task BadSocketTarget_IsRefusedBeforeAnyLoad(string target, string expected)
    {
        await File.WriteAllTextAsync(Path.Combine(_folder, "grpc.sock"), "");

        var run = await CallRuns.RunAsync("--target", string.Format(target, _folder), "--operations", "compute");

        Assert.Contains(string.Format(expected, _folder), CallRuns.AssertRefused(run), StringComparison.Ordinal);
    }
}
