using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests.Docker;

/// <summary>Runs that must fail, restart or stop, and still clean up after themselves.</summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class FailureTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task FailingLiveness_RestartsTheContainer_AndTheLastLineCountsIt()
    {
        // Nothing listens on 5999: the probe fails at its first try, and the kubelet restarts the container. That first
        // try comes 4 s in, after the stub is ready (about 3 s), so the Deployment is Available once and the run ends with
        // the Job. At 1 s the stub was killed before it was ever ready, and the run waited for the restart back-off (10 s,
        // then 20 s) to give it a ready moment: 12 to 37 s instead of about 11.
        const string Liveness = "          livenessProbe: {tcpSocket: {port: 5999}, initialDelaySeconds: 4, periodSeconds: 1, failureThreshold: 1}";
        using var folder = new TempKustomization(Manifests.Stub(Liveness) + "\n---\n" + Manifests.Job("wait", "sleep 8", spec: "  activeDeadlineSeconds: 60"));
        var result = StandInProcess.Run(Bound, folder.Directory, "--output", folder.Output, "--timeout", "90s");

        Assert.True(result.ExitCode == 0, result.Output);
        Assert.True(result.Restarts > 0, result.Output);
        Assert.Contains("Liveness probe failed: ", result.Output, StringComparison.Ordinal);
        Assert.Contains("restarted: ", result.StandardError, StringComparison.Ordinal);
        Assert.Empty(await Leftovers.OfRunAsync(result.RunId));
    }

    [Fact]
    public async Task JobOverItsActiveDeadline_Fails_WithExitOne_AndItsPodIsStopped()
    {
        using var folder = new TempKustomization(Manifests.Job("slow", "sleep 60", spec: "  activeDeadlineSeconds: 3"));
        var result = StandInProcess.Run(Bound, folder.Directory, "--output", folder.Output);

        Assert.True(result.ExitCode == 1, result.Output);
        Assert.Contains("Job slow: Failed: DeadlineExceeded", result.Output, StringComparison.Ordinal);
        Assert.True(result.Took < TimeSpan.FromSeconds(40), $"took {result.Took}");
        Assert.Equal("restarts: 0", result.LastLine);
        Assert.Empty(await Leftovers.OfRunAsync(result.RunId));
    }

    [Fact]
    public void FailedPods_AreRetriedUpToTheBackoffLimit()
    {
        using var folder = new TempKustomization(Manifests.Job("flaky", "exit 3", spec: "  activeDeadlineSeconds: 60").Replace("backoffLimit: 0", "backoffLimit: 1", StringComparison.Ordinal));
        var result = StandInProcess.Run(Bound, folder.Directory, "--output", folder.Output);

        Assert.True(result.ExitCode == 1, result.Output);
        Assert.Equal(2, result.StandardOutput.Count(l => l.Contains(": Failed: main exited 3", StringComparison.Ordinal)));
        Assert.Contains("Job flaky: Failed: BackoffLimitExceeded", result.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("INT")]
    [InlineData("TERM")]
    public async Task Signal_StopsTheRun_RemovesEverything_AndStillEndsWithTheRestartCount(string signal)
    {
        using var folder = new TempKustomization(Manifests.Stub() + "\n---\n" + Manifests.Job("long", "sleep 300", spec: "  activeDeadlineSeconds: 600"));
        using var run = StandInProcess.Start(folder.Directory, "--output", folder.Output);
        run.WaitForLine("Deployments Available", Bound);
        run.Signal(signal);
        var result = run.WaitForExit(TimeSpan.FromSeconds(90));

        Assert.True(result.ExitCode == 130, result.Output);
        Assert.Equal("restarts: 0", result.LastLine);
        var lines = result.StandardOutput.ToList();
        Assert.DoesNotContain(lines.Skip(lines.FindIndex(l => l.Contains("Deployments Available", StringComparison.Ordinal))), l => l.Contains("probe failed", StringComparison.Ordinal));
        Assert.Contains("removed the containers, networks and volumes", result.Output, StringComparison.Ordinal);
        Assert.Empty(await Leftovers.OfRunAsync(result.RunId));
        Assert.True(File.Exists(Path.Combine(folder.Output, "logs", Directory.GetFiles(Path.Combine(folder.Output, "logs"), "long-*.log").Single())));
    }

    [Fact]
    public void AMissingImage_IsNamed_WithHowToBuildIt_AndNothingRuns()
    {
        using var folder = new TempKustomization(Manifests.Job("x", "true").Replace("harness/runner:local", "harness/absent:local", StringComparison.Ordinal));
        var result = StandInProcess.Run(Bound, folder.Directory, "--output", folder.Output);

        Assert.True(result.ExitCode == 2, result.Output);
        Assert.Contains("the image harness/absent:local is not on this Docker engine", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("scripts/build-images.sh", result.StandardError, StringComparison.Ordinal);
        Assert.Equal("restarts: 0", result.LastLine);
    }
}
