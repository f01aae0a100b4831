using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// The real WCF client (System.ServiceModel.Http's ChannelFactory) against the stand-in, for the answers a WCF user
/// would notice: what the client throws when its contract does not match the service's.
/// </summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapWcfClientTests(SoapServerFixture server)
{
    private const string Dispatcher = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";

    [Fact]
    public async Task MatchingContract_Calls()
    {
        IWcfCalculator client = server.CreateWcfChannel<IWcfCalculator>(SoapServerFixture.CalculatorPath);

        WcfComputeResponse response = await client.ComputeAsync(new WcfComputeRequest { Iterations = 6 });

        Assert.Equal(21, response.Sum);
    }

    [Fact]
    public async Task WrapperInAnotherNamespace_IsAnInternalServiceFault_AFaultExceptionForWcf()
    {
        IWrongNamespaceCalculator client = server.CreateWcfChannel<IWrongNamespaceCalculator>(SoapServerFixture.CalculatorPath);

        FaultException fault = await Assert.ThrowsAsync<FaultException>(
            () => client.ComputeAsync(new WrongNamespaceComputeRequest { Iterations = 2 }));

        AssertInternalServiceFault(fault);
        await server.AssertStillServingAsync();
    }

    [Fact]
    public async Task BodyForAnotherAction_IsAnInternalServiceFault_AFaultExceptionForWcf()
    {
        IMismatchedActionCalculator client = server.CreateWcfChannel<IMismatchedActionCalculator>(SoapServerFixture.CalculatorPath);

        FaultException fault = await Assert.ThrowsAsync<FaultException>(
            () => client.ComputeAsync(new WcfComputeRequest { Iterations = 2 }));

        AssertInternalServiceFault(fault);
    }

    [Fact]
    public async Task MandatoryHeaderNotUnderstood_IsAnInternalServiceFault_AFaultExceptionForWcf()
    {
        IWcfCalculator client = server.CreateWcfChannel<IWcfCalculator>(SoapServerFixture.CalculatorPath);
        Task<WcfComputeResponse> call;
        using (new OperationContextScope((IContextChannel)client))
        {
            OperationContext.Current.OutgoingMessageHeaders.Add(MessageHeader.CreateHeader("Security", "urn:test", "token", mustUnderstand: true));
            call = client.ComputeAsync(new WcfComputeRequest { Iterations = 2 });
        }

        FaultException fault = await Assert.ThrowsAsync<FaultException>(() => call);

        AssertInternalServiceFault(fault);
    }

    [Fact]
    public async Task MemberOfTheWrongType_IsDeserializationFailed_AProtocolExceptionForWcf()
    {
        ITextIterationsCalculator client = server.CreateWcfChannel<ITextIterationsCalculator>(SoapServerFixture.CalculatorPath);

        ProtocolException error = await Assert.ThrowsAsync<ProtocolException>(
            () => client.ComputeAsync(new TextComputeRequest { Iterations = "many" }));

        Assert.Contains("The formatter threw an exception while trying to deserialize the message", error.Message);
    }

    private static void AssertInternalServiceFault(FaultException fault)
    {
        // SOAP 1.1 has no subcodes, so WCF's client sees the subcode as the code: neither a sender nor a receiver fault.
        Assert.Equal((Dispatcher, "InternalServiceFault"), (fault.Code.Namespace, fault.Code.Name));
        Assert.StartsWith("The server was unable to process the request due to an internal error.", fault.Message);
    }
}
