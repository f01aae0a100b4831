using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Probes;
using Harness.KubeletStandIn.Runtime;

namespace Harness.KubeletStandIn.Pods;

/// <summary>What every pod of a run shares: the engine, the parsed manifests, one network per namespace, one volume per PersistentVolumeClaim, the temporary folder, the console.</summary>
internal sealed class RunContext(DockerRuntime docker, ManifestSet manifests, RunLog log, string temporaryDirectory)
{
    private int _livenessRestarts;

    public DockerRuntime Docker { get; } = docker;

    public ManifestSet Manifests { get; } = manifests;

    public RunLog Log { get; } = log;

    public ProbeChecks Probes { get; } = new(docker);

    /// <summary>ConfigMap volumes are written here and bind-mounted read-only; removed with the run.</summary>
    public string TemporaryDirectory { get; } = temporaryDirectory;

    /// <summary>Namespace → the Docker network that stands for it.</summary>
    public Dictionary<string, string> Networks { get; } = new(StringComparer.Ordinal);

    /// <summary>"namespace/claim" → the Docker volume that stands for the PersistentVolumeClaim.</summary>
    public Dictionary<string, string> ClaimVolumes { get; } = new(StringComparer.Ordinal);

    /// <summary>Containers restarted after a failed liveness (or startup) probe, over the whole run.</summary>
    public int LivenessRestarts => Volatile.Read(ref _livenessRestarts);

    public void CountLivenessRestart() => Interlocked.Increment(ref _livenessRestarts);

    public static string ClaimKey(string ns, string claim) => $"{ns}/{claim}";
}
