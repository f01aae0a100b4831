using Harness.LoadTests.Running;
using Harness.Tests.Shared;

namespace Harness.LoadTests.Tests;

/// <summary>
/// The runner's folders (namespaces under Harness.LoadTests) depend one way: commands down to running, running down
/// to targets, scenarios, calls and recording. A two-way pair is a cycle a reader cannot follow, so it fails here.
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
}
