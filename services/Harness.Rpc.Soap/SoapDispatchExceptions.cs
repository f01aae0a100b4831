using System.Xml;
using Harness.Text;

namespace Harness.Rpc.Soap;

/// <summary>
/// The body is not the operation's request wrapper: a wrong element or namespace, or a body meant for another action.
/// WCF's formatter throws a SerializationException for this outside its parameter handling, so it is not a
/// DeserializationFailed fault but an InternalServiceFault.
/// </summary>
internal sealed class SoapBodyMismatchException(string operation, XmlQualifiedName expected, XmlDictionaryReader found)
    : Exception(
        $"Error in deserializing body of request message for operation '{operation}'. OperationFormatter encountered an " +
        $"invalid Message body. Expected to find node type 'Element' with name '{expected.Name}' and namespace " +
        $"'{expected.Namespace}'. Found node type '{found.NodeType}' with name '{Echo.Bounded(found.Name)}' and namespace '{Echo.Bounded(found.NamespaceURI)}'");

/// <summary>
/// A header addressed to this receiver demands to be understood, and none is. CoreWCF checks this after deserializing
/// the request and, having no fault converter for it on HTTP, answers with an InternalServiceFault.
/// </summary>
internal sealed class SoapHeaderNotUnderstoodException(XmlQualifiedName header)
    : Exception(
        $"The header '{Echo.Bounded(header.Name)}' from the namespace '{Echo.Bounded(header.Namespace)}' was not understood by the recipient of this " +
        "message, causing the message to not be processed.  This error typically indicates that the sender of this " +
        "message has enabled a communication protocol that the receiver cannot process.  Please ensure that the " +
        "configuration of the client's binding is consistent with the service's binding. ");
