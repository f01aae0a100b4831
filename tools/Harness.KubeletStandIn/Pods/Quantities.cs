using k8s.Models;

namespace Harness.KubeletStandIn.Pods;

/// <summary>A container's resources as Docker's cgroup settings, the way the kubelet sets them on cgroup v1.</summary>
internal static class Quantities
{
    /// <summary>limits.cpu as Docker's NanoCPUs (a CFS quota), or null without a limit.</summary>
    public static long? NanoCpus(V1ResourceRequirements? resources) =>
        Get(resources?.Limits, "cpu") is { } cpu ? (long)(cpu.ToDecimal() * 1_000_000_000m) : null;

    /// <summary>limits.memory in bytes, or null without a limit.</summary>
    public static long? MemoryBytes(V1ResourceRequirements? resources) =>
        Get(resources?.Limits, "memory") is { } memory ? (long)memory.ToDecimal() : null;

    /// <summary>
    /// cpu.shares from requests.cpu (the limit when no request is given, as the API server defaults it): millicores
    /// × 1024 / 1000, at least 2, as the kubelet's MilliCPUToShares; null when neither is set (Docker's 1024).
    /// </summary>
    public static long? CpuShares(V1ResourceRequirements? resources) =>
        (Get(resources?.Requests, "cpu") ?? Get(resources?.Limits, "cpu")) is { } cpu
            ? Math.Max(2, (long)(cpu.ToDecimal() * 1000m) * 1024 / 1000)
            : null;

    public static ResourceQuantity? Get(IDictionary<string, ResourceQuantity>? map, string name) =>
        map is not null && map.TryGetValue(name, out var value) ? value : null;
}
