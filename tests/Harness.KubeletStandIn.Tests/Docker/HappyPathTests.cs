using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests.Docker;

/// <summary>
/// One run of a small stack: the stub behind a Service, a ConfigMap mounted with items, an Indexed Job of 2
/// completions that reaches the stub by its Service name (short and fully qualified) and writes its index into a
/// claim, and a suspended merge-stage Job that runs after it and reads both. Each fact checks one part of that run.
/// </summary>
public sealed class HappyPathRun : IDisposable
{
    private readonly TempKustomization _folder;

    public HappyPathRun()
    {
        const string Claim = """
            apiVersion: v1
            kind: PersistentVolumeClaim
            metadata: {name: runs}
            spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Mi}}}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: settings}
            data: {greeting.txt: "hello from a ConfigMap", unused: "x"}
            ---
            """;
        var writer = Manifests.Job(
            "writer",
            $"""
            set -e
            {Manifests.AskStub("stub")} > /tmp/short
            {Manifests.AskStub("stub.kt.svc.cluster.local")} > /tmp/long
            echo "index $(JOB_COMPLETION_INDEX) of $(AGENTS) on $(hostname) as $(id -u):$(id -g) groups $(id -G) | $(cat /tmp/short) | $(cat /tmp/long) | $(cat /etc/settings/greeting) | $$HOME" > /runs/index-$(JOB_COMPLETION_INDEX).txt
            """,
            spec: "  completionMode: Indexed\n  completions: 2\n  parallelism: 2\n  activeDeadlineSeconds: 120",
            labels: "{harness/stage: load}",
            volumes: ", {name: runs, persistentVolumeClaim: {claimName: runs}}, {name: settings, configMap: {name: settings, items: [{key: greeting.txt, path: greeting}]}}",
            mounts: ", {name: runs, mountPath: /runs}, {name: settings, mountPath: /etc/settings, readOnly: true}")
            .Replace("          command: [bash, -c]", "          env: [{name: AGENTS, value: \"2\"}]\n          command: [bash, -c]", StringComparison.Ordinal);
        var merge = Manifests.Job(
            "merge",
            "cat /runs/index-*.txt | wc -l > /runs/merged.txt",
            spec: "  suspend: true\n  activeDeadlineSeconds: 60",
            labels: "{harness/stage: merge}",
            volumes: ", {name: runs, persistentVolumeClaim: {claimName: runs}}",
            mounts: ", {name: runs, mountPath: /runs}");
        _folder = new TempKustomization(Claim + "\n" + Manifests.Stub() + "\n---\n" + writer + "\n---\n" + merge, ns: "kt");
        Result = StandInProcess.Run(TimeSpan.FromMinutes(3), _folder.Directory, "--output", _folder.Output, "--timeout", "2m");
        Output = _folder.Output;
    }

    public StandInResult Result { get; }

    public string Output { get; }

    public void Dispose() => _folder.Dispose();
}

[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class HappyPathTests(HappyPathRun run) : IClassFixture<HappyPathRun>
{
    [Fact]
    public void ExitsZero_AndEndsWithTheRestartCount()
    {
        Assert.True(run.Result.ExitCode == 0, run.Result.Output);
        Assert.Equal("restarts: 0", run.Result.LastLine);
    }

    [Fact]
    public void IndexedJob_WritesEachIndexIntoTheClaim_WhichEndsUpInOutput()
    {
        var lines = Enumerable.Range(0, 2).Select(i => File.ReadAllText(Path.Combine(run.Output, $"index-{i}.txt"))).ToList();
        Assert.StartsWith("index 0 of 2 on writer-0 as 1654:1654 groups 1654", lines[0], StringComparison.Ordinal);
        Assert.StartsWith("index 1 of 2 on writer-1 as 1654:1654 groups 1654", lines[1], StringComparison.Ordinal);
        // $$HOME reached bash as $HOME; the image's app user lives in /home/app.
        Assert.All(lines, l => Assert.EndsWith("| /home/app\n", l, StringComparison.Ordinal));
    }

    [Fact]
    public void ServiceName_IsReachableFromAJob_ShortAndFullyQualified() =>
        Assert.All(Directory.GetFiles(run.Output, "index-*.txt"), f =>
            Assert.Contains("| HTTP/1.1 200 OK\r | HTTP/1.1 200 OK\r |", File.ReadAllText(f), StringComparison.Ordinal));

    [Fact]
    public void ConfigMapItems_AreMountedReadableByThePodsUser() =>
        Assert.All(Directory.GetFiles(run.Output, "index-*.txt"), f => Assert.Contains("| hello from a ConfigMap |", File.ReadAllText(f), StringComparison.Ordinal));

    [Fact]
    public void MergeStage_RunsAfterTheLoadJob()
    {
        Assert.Equal("2", File.ReadAllText(Path.Combine(run.Output, "merged.txt")).Trim());
        var lines = run.Result.StandardOutput;
        Assert.True(
            lines.ToList().FindIndex(l => l.Contains("Job writer: Complete", StringComparison.Ordinal))
            < lines.ToList().FindIndex(l => l.Contains("Job merge: started", StringComparison.Ordinal)),
            run.Result.Output);
    }

    [Fact]
    public void EveryPodsLogs_AndTheManifests_AreInOutput()
    {
        var logs = Directory.GetFiles(Path.Combine(run.Output, "logs")).Select(Path.GetFileName).ToList();
        Assert.Equal(4, logs.Count); // the stub, two writers, the merge
        Assert.Contains(logs, l => l!.StartsWith("writer-0-", StringComparison.Ordinal));
        Assert.Contains("kind: Job", File.ReadAllText(Path.Combine(run.Output, "manifests.yaml")), StringComparison.Ordinal);
    }

    [Fact]
    public async Task CleanUp_LeavesNothingLabelledWithTheRun() => Assert.Empty(await Leftovers.OfRunAsync(run.Result.RunId));

    [Fact]
    public void Probes_StopWithTheRun()
    {
        // The stub is probed every second: a probe still running while the clean-up removes it would say so.
        var lines = run.Result.StandardOutput.ToList();
        var copied = lines.FindIndex(l => l.Contains("copied PersistentVolumeClaim", StringComparison.Ordinal));
        Assert.True(copied > 0, run.Result.Output);
        Assert.DoesNotContain(lines.Skip(copied), l => l.Contains("probe failed", StringComparison.Ordinal));
    }
}

[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class DockerCollection
{
    public const string Name = "Docker runs of the stand-in";
}
