using Harness.Tests.Shared;

namespace Harness.KubeletStandIn.Tests;

/// <summary>
/// The stand-in's folders depend one way, down the kubelet's seams (docs/kubernetes.md, "Running the manifests
/// here"): the run as a whole, then the controllers, the pods, their probes, the Docker runtime; the pods read the
/// manifests, which read the options. Read from the compiled assembly by the same scan as the runner's folders.
/// </summary>
public sealed class FolderDependencyTests
{
    /// <summary>Top to bottom: a folder may use only the folders after it.</summary>
    private static readonly string[] Order = [FolderDependencies.Root, "Controllers", "Pods", "Probes", "Runtime", "Manifests", "Cli"];

    private static readonly Lazy<FolderDependencies> Scan = new(() => FolderDependencies.Of(typeof(StandIn).Assembly, "Harness.KubeletStandIn"));

    [Fact]
    public void EveryFolderOfTheStandIn_UsesOnlyTheFoldersBelowIt()
    {
        var scan = Scan.Value;

        var broken = scan.Against(Order);

        Assert.True(broken.Count == 0, $"{string.Join("; ", broken)}. Arrows found: {scan.Describe()}.");
    }

    [Fact]
    public void TheScan_SeesEachStepDownTheOrder()
    {
        // An order that nothing uses would pass by itself; each step of it is a use the scan must see.
        var uses = Scan.Value.Uses;

        Assert.Contains("Controllers", uses[FolderDependencies.Root]);
        Assert.Contains("Pods", uses["Controllers"]);
        Assert.Contains("Probes", uses["Pods"]);
        Assert.Contains("Runtime", uses["Probes"]);
        Assert.Contains("Manifests", uses["Pods"]);
        Assert.Contains("Cli", uses["Manifests"]);
        Assert.Empty(Scan.Value.TwoWay());
    }
}
