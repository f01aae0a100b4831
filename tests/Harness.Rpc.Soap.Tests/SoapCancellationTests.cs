namespace Harness.Rpc.Soap.Tests;

[Collection(SoapServerCollection.Name)]
public sealed class SoapCancellationTests(SoapServerFixture server)
{
    [Theory]
    [InlineData(SoapServerFixture.CalculatorPath)]
    [InlineData(SoapServerFixture.ContextPath)]
    public async Task SyncOperationWithToken_ClientAbandonsTheCall_TheTokenIsCancelled(string path)
    {
        // Arrange
        AbortProbe.Reset();
        SoapClient client = server.CreateClient(path);
        using var cancellation = new CancellationTokenSource();
        Task call = client.InvokeAsync<EchoMessage, EchoMessage>("SpinUntilAborted", new EchoMessage { Text = "x" }, cancellation.Token);
        await AbortProbe.Started.Task.WaitAsync(TimeSpan.FromSeconds(10));

        // Act: cancelling the HTTP request closes its connection, as a client timeout does.
        await cancellation.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call);
        bool sawCancellation = await AbortProbe.Stopped.Task.WaitAsync(AbortProbe.Bound + TimeSpan.FromSeconds(5));

        // Assert
        Assert.True(sawCancellation, "the operation ran to its bound without seeing the request's abort token cancelled");
        await server.AssertStillServingAsync();
    }
}
