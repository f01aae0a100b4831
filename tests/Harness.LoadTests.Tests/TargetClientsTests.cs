using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Soap;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Tests;

/// <summary>The client a series records in its parameters (run.json, the report): its stack's client.</summary>
public sealed class TargetClientsTests
{
    private static readonly Uri Address = new("http://127.0.0.1:1/");

    [Fact]
    public void Series_NameTheirClient()
    {
        var soap = new ServiceTarget(Stacks.Soap, "threadpool", Address, null);
        var grpc = new ServiceTarget(Stacks.Grpc, "threadpool", Address, null);
        var parameters = new Dictionary<string, string> { ["iterations"] = "1" };

        Assert.Equal("wcf", TargetClients.Named(parameters, soap, SoapClients.Wcf)["client"]);
        Assert.Equal("lean", TargetClients.Named(parameters, grpc, SoapClients.Wcf)["client"]);
        Assert.Equal("grpcnet", TargetClients.Named(parameters, grpc, SoapClients.Lean, GrpcClients.GrpcNet)["client"]);
    }

    [Fact]
    public void TheLeanSoapClient_OnAnHttpsTarget_IsNamedAsTheHttpClientItPostsThrough()
    {
        var secure = new Uri("https://127.0.0.1:1/");
        var soap = new ServiceTarget(Stacks.Soap, "threadpool", secure, null);
        var grpc = new ServiceTarget(Stacks.Grpc, "threadpool", secure, null);
        var parameters = new Dictionary<string, string>();

        Assert.Equal("lean (https: HttpClient)", TargetClients.Named(parameters, soap, SoapClients.Lean)["client"]);
        Assert.Equal("wcf", TargetClients.Named(parameters, soap, SoapClients.Wcf)["client"]);
        Assert.Equal("lean", TargetClients.Named(parameters, grpc, SoapClients.Lean)["client"]);
    }
}
