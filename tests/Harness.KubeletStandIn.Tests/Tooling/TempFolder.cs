namespace Harness.KubeletStandIn.Tests.Tooling;

/// <summary>A fresh path under the temp folder, not created (the stand-in's --output must be absent or empty); deleted on dispose.</summary>
public sealed class TempFolder : IDisposable
{
    public string Directory { get; } = Path.Combine(Path.GetTempPath(), "kubelet-stand-in-tests", Guid.NewGuid().ToString("N"), "out");

    public void Dispose()
    {
        try
        {
            System.IO.Directory.Delete(Path.GetDirectoryName(Directory)!, recursive: true);
        }
        catch (IOException)
        {
            // A leftover temp folder is harmless; never fail a test over it.
        }
        catch (UnauthorizedAccessException)
        {
            // Files written by the pods' user; left for the temp folder's own clean-up.
        }
    }
}
