using System.Xml;
using Harness.Text;

namespace Harness.Rpc.Soap;

/// <summary>A fault the dispatcher sends, with the codes and reasons WCF uses for the same failures.</summary>
internal sealed record SoapFault(XmlQualifiedName Code, string Reason, SoapExceptionDetail? Detail = null)
{
    // The text of WCF's SFxInternalServerError resource, so clients that match on it keep working.
    public const string InternalServerErrorReason =
        "The server was unable to process the request due to an internal error.  For more information about the error, " +
        "either turn on IncludeExceptionDetailInFaults (either from ServiceBehaviorAttribute or from the <serviceDebug> " +
        "configuration behavior) on the server in order to send the exception information back to the client, or turn " +
        "on tracing as per the Microsoft .NET Framework SDK documentation and inspect the server trace logs.";

    public static SoapFault FromException(SoapFaultException exception) => new(exception.FaultCode, exception.Reason);

    public static SoapFault InternalServiceFault(Exception exception, bool includeExceptionDetail) =>
        new(
            new XmlQualifiedName(SoapNames.InternalServiceFault, SoapNames.DispatcherNamespace),
            includeExceptionDetail ? exception.Message : InternalServerErrorReason,
            includeExceptionDetail ? new SoapExceptionDetail(exception) : null);

    public static SoapFault ActionNotSupported(string? action) =>
        new(
            new XmlQualifiedName(SoapNames.ActionNotSupported, SoapNames.AddressingNoneNamespace),
            $"The message with Action '{Echo.Bounded(action)}' cannot be processed at the receiver, due to a ContractFilter mismatch at " +
            "the EndpointDispatcher. This may be because of either a contract mismatch (mismatched Actions between sender " +
            "and receiver) or a binding/security mismatch between the sender and the receiver.  Check that sender and " +
            "receiver have the same contract and the same binding (including security requirements, e.g. Message, " +
            "Transport, None).");

    public static SoapFault DeserializationFailed(string operation, Exception exception, bool includeExceptionDetail) =>
        new(
            new XmlQualifiedName(SoapNames.DeserializationFailed, SoapNames.DispatcherNamespace),
            "The formatter threw an exception while trying to deserialize the message: Error in deserializing body of " +
            $"request message for operation '{operation}'. {Echo.Bounded(exception.Message)}",
            includeExceptionDetail ? new SoapExceptionDetail(exception) : null);

    // WCF's SFxNoEndpointMatchingAddress, for a message to a path below the endpoint that is not the endpoint's own.
    public static SoapFault DestinationUnreachable(string to) =>
        new(
            new XmlQualifiedName(SoapNames.DestinationUnreachable, SoapNames.AddressingNoneNamespace),
            $"The message with To '{Echo.Bounded(to)}' cannot be processed at the receiver, due to an AddressFilter mismatch at the " +
            "EndpointDispatcher.  Check that the sender and receiver's EndpointAddresses agree.");
}
