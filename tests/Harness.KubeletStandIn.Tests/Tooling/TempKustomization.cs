namespace Harness.KubeletStandIn.Tests.Tooling;

/// <summary>A folder holding a kustomization.yaml over one manifest file of the test's own, and an output folder beside it; deleted on dispose.</summary>
public sealed class TempKustomization : IDisposable
{
    public TempKustomization(string manifests, string? ns = null)
    {
        Root = Path.Combine(Path.GetTempPath(), "kubelet-stand-in-tests", Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(Directory);
        File.WriteAllText(Path.Combine(Directory, "all.yaml"), manifests);
        File.WriteAllText(Path.Combine(Directory, "kustomization.yaml"), $"""
            apiVersion: kustomize.config.k8s.io/v1beta1
            kind: Kustomization
            {(ns is null ? "" : $"namespace: {ns}")}
            resources: [all.yaml]
            """);
    }

    public string Root { get; }

    public string Directory => Path.Combine(Root, "overlay");

    public string Output => Path.Combine(Root, "out");

    public void Dispose()
    {
        try
        {
            System.IO.Directory.Delete(Root, recursive: true);
        }
        catch (IOException)
        {
            // A leftover temp folder is harmless; never fail a test over it.
        }
    }
}
