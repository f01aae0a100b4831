namespace Harness.Rpc.Soap.Tests;

/// <summary>The DispatchRuntime.SynchronizationContext behaviour: invocations are posted to the endpoint's context.</summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapDispatchContextTests(SoapServerFixture server)
{
    [Fact]
    public void SyncOperation_RunsOnTheContextsThread_WithTheContextAsCurrent()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.ContextPath);
        int postedBefore = server.DispatchContext.PostedCount;

        ComputeResponse response = client.Invoke<ComputeRequest, ComputeResponse>("Compute", new ComputeRequest { Iterations = 3 });

        Assert.Equal(6, response.Sum);
        Assert.Equal(server.DispatchContext.ManagedThreadId, response.ThreadBefore);
        Assert.Equal(server.DispatchContext.Name, response.ContextBefore);
        Assert.False(response.PoolThread);
        Assert.True(server.DispatchContext.PostedCount > postedBefore);
        Assert.Null(server.DispatchContext.CallbackFailure);
    }

    [Fact]
    public async Task TaskOperation_ResumesOnTheContextAfterAwait()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.ContextPath);

        ComputeResponse response = await client.InvokeAsync<ComputeRequest, ComputeResponse>("ComputeAsync", new ComputeRequest { Iterations = 3 });

        Assert.Equal(6, response.Sum);
        Assert.Equal(server.DispatchContext.ManagedThreadId, response.ThreadBefore);
        Assert.Equal(server.DispatchContext.ManagedThreadId, response.ThreadAfter);
        Assert.Equal(server.DispatchContext.Name, response.ContextBefore);
        Assert.Equal(server.DispatchContext.Name, response.ContextAfter);
        Assert.Null(server.DispatchContext.CallbackFailure);
    }

    [Fact]
    public async Task FaultsAndCrashesOnTheContext_StillAnswer_AndTheContextKeepsServing()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.ContextPath);

        SoapFaultException fault = await Assert.ThrowsAsync<SoapFaultException>(
            () => client.InvokeAsync<FailRequest, EchoMessage>("FailAsync", new FailRequest { Client = true, Reason = "rejected" }));
        SoapFaultException crash = await Assert.ThrowsAsync<SoapFaultException>(
            () => client.InvokeAsync<EchoMessage, EchoMessage>("Crash", new EchoMessage()));
        ComputeResponse after = await client.InvokeAsync<ComputeRequest, ComputeResponse>("ComputeAsync", new ComputeRequest { Iterations = 2 });

        Assert.Equal((SoapFaultCode.Client, "rejected"), (fault.Code, fault.Reason));
        Assert.Equal("InternalServiceFault", crash.FaultCode.Name);
        Assert.Equal(3, after.Sum);
        Assert.Equal(server.DispatchContext.ManagedThreadId, after.ThreadAfter);
        Assert.Null(server.DispatchContext.CallbackFailure);
    }
}
