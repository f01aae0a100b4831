using Harness.LoadTests.Clients;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>
/// The runner's folders (namespaces under Harness.LoadTests) depend one way: commands down to running, running down
/// to targets, scenarios and recording. A two-way pair is a cycle a reader cannot follow, so it fails here. Below the
/// runner, its call clients (Harness.LoadTests.Clients) are a project of their own that knows nothing of a run.
/// The scan (tests/Shared/FolderDependencies) reads the compiled assembly, method bodies included.
/// </summary>
public sealed class FolderDependencyTests
{
    // Scanned once for both tests: reflecting over every body of the assembly is most of their time.
    private static readonly Lazy<FolderDependencies> Scan = new(() => FolderDependencies.Of(typeof(RunOrchestrator).Assembly, "Harness.LoadTests"));

    [Fact]
    public void NoTwoFoldersOfTheRunner_UseEachOtherBothWays()
    {
        var twoWay = Scan.Value.TwoWay();

        Assert.Empty(twoWay);
    }

    [Fact]
    public void TheScan_SeesAUseInAMethodBody()
    {
        // The commands name Live/ only inside a lambda (RunCommand.Sinks starts the page); a scan blind to bodies misses it.
        var uses = Scan.Value.Uses;

        Assert.Contains("Live", uses["Commands"]);
        Assert.Contains("Running", uses["Commands"]);
        Assert.DoesNotContain("Commands", uses["Running"]);
    }

    [Fact]
    public void TheClients_UseNoProjectOfTheRunner_AndTheRunnerUsesThem()
    {
        // The runner reaches its clients through ICallClient, CallResolver and HarnessClients; a client that named a
        // Running, Scenarios or Recording type would need the runner (or its engine, hosting, recording, reporting) below it.
        var clients = typeof(ICallClient).Assembly;
        var runner = typeof(RunOrchestrator).Assembly;

        var runnerProjects = clients.GetReferencedAssemblies()
            .Select(a => a.Name!)
            .Where(name => name == runner.GetName().Name || name.StartsWith("Harness.LoadTests.", StringComparison.Ordinal))
            .ToList();

        Assert.Empty(runnerProjects);
        Assert.Contains(clients.GetName().Name, runner.GetReferencedAssemblies().Select(a => a.Name));
    }

    [Fact]
    public void Diagnostics_IsUsedByTheRun_AndUsesNeitherTheRunNorTheCommands()
    {
        // Diagnostics/ (the EventPipe session on a target's runtime) sits below Running/ and Targets/, as Calls/ does.
        var uses = Scan.Value.Uses;

        Assert.Contains("Diagnostics", uses["Running"]);
        Assert.Contains("Diagnostics", uses["Targets"]);
        Assert.DoesNotContain("Commands", uses["Diagnostics"]);
        Assert.DoesNotContain("Running", uses["Diagnostics"]);
        Assert.DoesNotContain("Targets", uses["Diagnostics"]);
    }
}
