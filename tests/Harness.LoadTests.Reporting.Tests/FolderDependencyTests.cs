using Harness.Tests.Shared;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// Reporting's folders (one namespace each) depend one way: Formats renders what Analysis computed, and both write
/// figures with Text. Read from the compiled types, their signatures and the members their method bodies use
/// (tests/Shared/FolderDependencies, the scan the runner's and the kubelet stand-in's folders are checked with).
/// </summary>
public sealed class FolderDependencyTests
{
    [Fact]
    public void No_two_folders_use_each_other()
    {
        var scan = FolderDependencies.Of(typeof(RunAnalysis).Assembly, "Harness.LoadTests.Reporting");

        var broken = scan.Against("Formats", "Analysis", "Text");

        Assert.True(broken.Count == 0, $"{string.Join("; ", broken)}. Arrows found: {scan.Describe()}.");
        Assert.Contains("Analysis", scan.Uses["Formats"]);
    }
}
