using System.Globalization;
using Harness.LoadTests.Containers;
using Harness.LoadTests.Targets;
using YamlDotNet.RepresentationModel;

namespace Harness.LoadTests.Tests.Containers;

/// <summary>
/// docker-compose.yml read as compose reads it (anchors and <c>&lt;&lt;</c> merged), its targets parsed by the runner's own
/// parser; no Docker needed. The Docker tests (ComposeSmokeTests, ComposeAgentsTests) run it.
/// </summary>
public sealed class ComposeFileTests
{
    private static readonly YamlMappingNode Services = LoadServices();

    /// <summary>The SOAP and gRPC services: every one the harness/soap and harness/grpc images run.</summary>
    public static TheoryData<string> RpcServices => [.. RpcServiceNames()];

    /// <summary>The containers that load them: the runner, and the agents of profile "agents".</summary>
    public static TheoryData<string> Loaders => ["runner", "agent"];

    [Theory]
    [MemberData(nameof(RpcServices))]
    public void RpcService_ServesMetricsOnADedicatedPort_ApartFromItsKestrelPort(string service)
    {
        // Arrange, Act
        var metricsPort = MetricsPortOf(service);

        // Assert
        Assert.True(metricsPort is > 0 and <= 65_535, $"{service}: Listen__MetricsPort '{EnvironmentOf(service).GetValueOrDefault("Listen__MetricsPort")}' is not a port");
        Assert.NotEqual(ListenPortOf(service), metricsPort);
        Assert.Equal(ServiceContainer.MetricsPort, metricsPort); // one port wherever the services run: matrix, compose, k8s/
    }

    [Theory]
    [MemberData(nameof(RpcServices))]
    public void RpcService_Healthcheck_AsksHealthzOnTheDedicatedPort_NotKestrel(string service)
    {
        // Arrange, Act: the shell command of the healthcheck's test ("CMD", "bash", "-c", command).
        var healthcheck = (YamlMappingNode)Service(service)["healthcheck"];
        var command = ((YamlScalarNode)((YamlSequenceNode)healthcheck["test"]).Children[^1]).Value!;

        // Assert: the port a thread of the service's own answers; the Kestrel ones wait behind the workload.
        Assert.Contains("/dev/tcp/127.0.0.1/$$Listen__MetricsPort ", command, StringComparison.Ordinal);
        Assert.Contains("GET /healthz ", command, StringComparison.Ordinal);
        Assert.DoesNotContain("Listen__Port", command, StringComparison.Ordinal);
        Assert.DoesNotContain("Listen__AdminPort", command, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Loaders))]
    public void Loader_TargetsEveryRpcServiceOnce_AndScrapesItsDedicatedMetricsPort(string loader)
    {
        // Arrange, Act: the --target arguments, bound as `harness run` binds them.
        var targets = Command(loader)
            .Where(a => a.StartsWith("--target=", StringComparison.Ordinal))
            .Select(a => ExternalTargets.Parse(a["--target=".Length..], "external"))
            .ToList();

        // Assert: one target per service, of its stack and mode, on its port; its metrics where the service serves them.
        Assert.Equal(RpcServiceNames().Order(StringComparer.Ordinal), targets.Select(t => t.ServiceAddress.Host).Order(StringComparer.Ordinal));
        Assert.All(targets, target =>
        {
            var service = target.ServiceAddress.Host;
            Assert.Equal($"harness/{target.Stack}", Image(service).Split(':')[0]);
            Assert.Equal(EnvironmentOf(service)["Scheduling__Mode"], target.Mode);
            Assert.Equal(ListenPortOf(service), target.ServiceAddress.Port);
            Assert.Equal($"http://{service}:{MetricsPortOf(service)}/", target.MetricsAddress!.ToString());
        });
    }

    private static IEnumerable<string> RpcServiceNames() =>
        Services.Children.Keys.Select(k => ((YamlScalarNode)k).Value!)
            .Where(s => Image(s).StartsWith("harness/soap:", StringComparison.Ordinal) || Image(s).StartsWith("harness/grpc:", StringComparison.Ordinal));

    private static YamlMappingNode Service(string name) => (YamlMappingNode)Services[name];

    private static string Image(string service) => ((YamlScalarNode)Service(service)["image"]).Value!;

    private static Dictionary<string, string> EnvironmentOf(string service) =>
        Service(service).Children.TryGetValue("environment", out var env)
            ? ((YamlMappingNode)env).Children.ToDictionary(p => ((YamlScalarNode)p.Key).Value!, p => ((YamlScalarNode)p.Value).Value!)
            : [];

    private static List<string> Command(string service) =>
        [.. ((YamlSequenceNode)Service(service)["command"]).Children.Select(c => ((YamlScalarNode)c).Value!)];

    private static int MetricsPortOf(string service) =>
        int.TryParse(EnvironmentOf(service).GetValueOrDefault("Listen__MetricsPort"), NumberStyles.None, CultureInfo.InvariantCulture, out var port) ? port : -1;

    // The image sets Listen__Port (the Dockerfile's PORT); compose publishes it as "127.0.0.1:${HOST_PORT}:PORT".
    private static int ListenPortOf(string service)
    {
        var mapping = Assert.Single(((YamlSequenceNode)Service(service)["ports"]).Children);
        return int.Parse(((YamlScalarNode)mapping).Value!.Split(':')[^1], CultureInfo.InvariantCulture);
    }

    private static YamlMappingNode LoadServices()
    {
        using var reader = File.OpenText(Path.Combine(Docker.RepositoryRoot, "docker-compose.yml"));
        var yaml = new YamlStream();
        yaml.Load(reader);
        var services = (YamlMappingNode)((YamlMappingNode)yaml.Documents[0].RootNode)["services"];
        return (YamlMappingNode)Merged(services);
    }

    // YAML's merge key as compose applies it: "<<: *anchor" adds the anchor's keys that the mapping does not set itself.
    // (YamlDotNet's MergingParser refuses a key set both ways, as the stub's cpus is.)
    private static YamlNode Merged(YamlNode node)
    {
        if (node is not YamlMappingNode mapping)
        {
            return node;
        }

        var merged = new YamlMappingNode();
        foreach (var (key, value) in mapping.Children.Where(p => ((YamlScalarNode)p.Key).Value != "<<"))
        {
            merged.Add(key, Merged(value));
        }

        if (mapping.Children.TryGetValue("<<", out var source))
        {
            foreach (var (key, value) in ((YamlMappingNode)Merged(source)).Children.Where(p => !merged.Children.ContainsKey(p.Key)))
            {
                merged.Add(key, value);
            }
        }

        return merged;
    }
}
