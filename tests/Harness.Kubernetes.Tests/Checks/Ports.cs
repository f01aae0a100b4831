using System.Globalization;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Checks;

/// <summary>Container ports, and the ports a service is configured to listen on (its environment).</summary>
public static class Ports
{
    public const string ListenPort = "Listen__Port";
    public const string AdminPort = "Listen__AdminPort";
    public const string MetricsPort = "Listen__MetricsPort";

    /// <summary>A named or numbered port of the container, or null when it declares no such port.</summary>
    public static V1ContainerPort? Resolve(V1Container container, string port) =>
        container.Ports?.FirstOrDefault(p => p.Name == port || p.ContainerPort.ToString(CultureInfo.InvariantCulture) == port);

    public static string? Env(V1Container container, string name) =>
        container.Env?.FirstOrDefault(e => e.Name == name)?.Value;

    /// <summary>Where Kestrel answers /healthz: the admin port where there is one (gRPC), else the service's own port.</summary>
    public static string? Health(V1Container container) => Env(container, AdminPort) ?? Env(container, ListenPort);

    /// <summary>Which setting a port number is, for messages: <c>Listen__Port 5081</c>, or <c>undeclared 6000</c>.</summary>
    public static string Describe(V1Container container, int port)
    {
        var text = port.ToString(CultureInfo.InvariantCulture);
        return new[] { ListenPort, AdminPort, MetricsPort }.FirstOrDefault(n => Env(container, n) == text) is { } setting
            ? $"{setting} {text}"
            : $"container port {text}";
    }

    /// <summary>The ports the service listens on by its configuration: Listen__Port, Listen__AdminPort and Listen__MetricsPort.</summary>
    public static IReadOnlyList<int> Configured(V1Container container) =>
        [.. new[] { ListenPort, AdminPort, MetricsPort }.Select(n => Env(container, n)).OfType<string>()
            .Select(v => int.TryParse(v, NumberStyles.None, CultureInfo.InvariantCulture, out var p) ? p : -1)];
}
