import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Blockhash,
  type Instruction,
  type TransactionPartialSigner,
} from '@solana/kit';

/**
 * A v0 transaction (no lookup tables) of `instructions`, `payer` paying its fee, alive while `blockhash` is, signed
 * by every signer it names. Shared by the SDK's transactions; not part of its API.
 */
export function signedTransaction(payer: TransactionPartialSigner, blockhash: { blockhash: string; lastValidBlockHeight: bigint }, instructions: Instruction[]) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash.blockhash as Blockhash, lastValidBlockHeight: BigInt(blockhash.lastValidBlockHeight) },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return signTransactionMessageWithSigners(message);
}
