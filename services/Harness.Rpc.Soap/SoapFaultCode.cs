namespace Harness.Rpc.Soap;

/// <summary>The two SOAP 1.1 fault classes: the sender's message was at fault, or the receiver failed.</summary>
public enum SoapFaultCode
{
    /// <summary><c>s:Client</c> (a WCF sender fault): the request was wrong and resending it unchanged will fail again.</summary>
    Client,

    /// <summary><c>s:Server</c> (a WCF receiver fault): the service failed while processing a valid request.</summary>
    Server,
}
