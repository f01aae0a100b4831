using Harness.Contracts;
using Harness.GrpcService;
using Harness.ServiceDefaults;
using Harness.SoapService;
using Harness.ThirdPartyStub;
using Microsoft.AspNetCore.Builder;

namespace Harness.Services.Tests;

/// <summary>The stub and one service, started in this process on free loopback ports with real Kestrel.</summary>
public sealed class InProcessHarness : IAsyncDisposable
{
    private readonly WebApplication _stub;
    private readonly WebApplication _service;

    private InProcessHarness(WebApplication stub, WebApplication service, Uri stubAddress, Uri serviceAddress, Uri adminAddress, Stack stack, CapturingLoggerProvider logs)
    {
        _stub = stub;
        _service = service;
        StubAddress = stubAddress;
        ServiceAddress = serviceAddress;
        AdminAddress = adminAddress;
        Stack = stack;
        Logs = logs;
    }

    public Uri StubAddress { get; }

    public Uri ServiceAddress { get; }

    /// <summary>The HTTP/1.1 admin port's address: /healthz and /metrics.</summary>
    public Uri AdminAddress { get; }

    public Stack Stack { get; }

    public IServiceProvider Services => _service.Services;

    /// <summary>The service's log entries at Warning and above (not the stub's).</summary>
    public CapturingLoggerProvider Logs { get; }

    public static async Task<InProcessHarness> StartAsync(Stack stack, string mode, params string[] extraArgs)
    {
        var stub = StubApp.Build(["--Listen:Port=0", .. QuietLogs]);
        await stub.StartAsync();
        var stubAddress = stub.GetBoundAddress();

        var (captureArgs, logs) = SerilogCapture.Create();
        string[] args = ["--Listen:Port=0", "--Listen:AdminPort=0", $"--Scheduling:Mode={mode}", $"--ThirdParty:BaseAddress={stubAddress}", .. QuietLogs, .. captureArgs, .. extraArgs];
        var service = stack == Stack.Soap ? SoapApp.Build(args) : GrpcApp.Build(args);
        try
        {
            await service.StartAsync();
        }
        catch
        {
            await stub.DisposeAsync();
            await service.DisposeAsync();
            throw;
        }

        // Kestrel lists the endpoints in the order they were configured: the main one, then the admin port.
        var addresses = service.Urls.Select(url => new Uri(url)).ToList();
        return new InProcessHarness(stub, service, stubAddress, addresses[0], addresses[^1], stack, logs);
    }

    public IHarnessClient CreateClient() => Stack == Stack.Soap
        ? new HarnessSoapClient(ServiceAddress)
        : new HarnessGrpcClient(ServiceAddress);

    public async ValueTask DisposeAsync()
    {
        await _service.StopAsync();
        await _service.DisposeAsync();
        await _stub.StopAsync();
        await _stub.DisposeAsync();
    }

    private static readonly string[] QuietLogs = ["--Serilog:MinimumLevel:Default=Warning"];
}
